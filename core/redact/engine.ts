// redactText: masks every secret in any text (handoff fields, share views, logs) with
// `[REDACTED:<kind>]`. Three stages, each on the previous one's output: the hand-written rules
// (./rules.ts), the vendor rule set (./vendor.ts) on what they left, then the high-entropy rule
// (./entropy.ts). Synchronous and idempotent: a marker is a fixed point of every stage.
import { redactHighEntropy } from "./entropy";
import { MARKER_PATTERN, type RedactionKind, redactionMarker } from "./kinds";
import { RULES } from "./rules";
import { vendorFindings } from "./vendor";

/*
 * Every vendor format is a run of 16+ token characters (or a URL, which the hand-written
 * connection-string rule sees first), so text without one skips the vendor stage entirely.
 */
const VENDOR_PREFILTER = /[A-Za-z0-9_.+/=-]{16,}/;

function applyRules(text: string, kinds: RedactionKind[]): string {
  let out = text;
  let lower = out.toLowerCase();
  for (const rule of RULES) {
    if (!rule.keywords.some((k) => lower.includes(k))) continue;
    let changed = false;
    out = out.replace(rule.pattern, (...args: unknown[]) => {
      // Named-group objects are absent here, so the last two arguments are offset and input.
      const match = args.slice(0, -2).map((a) => (typeof a === "string" ? a : undefined));
      const replacement = rule.replace(match);
      if (replacement === null) return args[0] as string;
      if (!kinds.includes(rule.kind)) kinds.push(rule.kind);
      changed = true;
      return replacement;
    });
    if (changed) lower = out.toLowerCase();
  }
  return out;
}

function applyVendor(text: string, kinds: RedactionKind[]): string {
  if (!VENDOR_PREFILTER.test(text)) return text;
  const markers = [...text.matchAll(MARKER_PATTERN)].map((m) => [m.index, m.index + m[0].length]);
  const overlapsMarker = (start: number, end: number) =>
    markers.some(([s = 0, e = 0]) => start < e && s < end);
  let out = "";
  let at = 0;
  for (const finding of vendorFindings(text)) {
    // What a marker stands in for is already gone; a finding spanning one is the rule seeing the
    // rest of a value the earlier stage masked (e.g. a URL whose password is a marker).
    if (finding.start < at || overlapsMarker(finding.start, finding.end)) continue;
    out += text.slice(at, finding.start) + redactionMarker(finding.kind);
    at = finding.end;
    if (!kinds.includes(finding.kind)) kinds.push(finding.kind);
  }
  return at === 0 ? text : out + text.slice(at);
}

/** One pass of the three stages. */
function redactOnce(text: string, kinds: RedactionKind[]): string {
  let out = applyRules(text, kinds);
  out = applyVendor(out, kinds);
  const entropy = redactHighEntropy(out);
  if (entropy.found && !kinds.includes("high_entropy")) kinds.push("high_entropy");
  return entropy.text;
}

/**
 * Masks every secret in `text`; `kinds` lists each kind found once, in the order found.
 * Passes repeat until one changes nothing, which makes the result a fixed point: a marker can
 * expose what was next to it (`0ghp_…ghp_…`: the second token masked, the first one now ends at
 * a word boundary). Each further pass masks part of the original text, so there are at most as
 * many as secrets fit in it.
 */
export function redactText(text: string): { text: string; kinds: RedactionKind[] } {
  const kinds: RedactionKind[] = [];
  let current = text;
  const most = Math.ceil(text.length / 8) + 2;
  for (let pass = 0; pass < most; pass++) {
    const next = redactOnce(current, kinds);
    if (next === current) break;
    current = next;
  }
  return { text: current, kinds };
}
