// The maintained vendor rule set: secretlint's recommended preset (MIT, an npm dependency, so an
// update is a version bump). Its rules are plain objects whose `file` handler scans a string and
// calls `context.report` synchronously, so they run here in-process with a minimal context and no
// secretlint engine (whose API is asynchronous). docs/security.md says why this source.
import { rules as presetRules } from "@secretlint/secretlint-rule-preset-recommend";
import type { RedactionKind } from "./kinds";

/** The part of secretlint's rule API this adapter relies on. */
interface VendorRule {
  meta: { id: string };
  create(
    context: {
      report(descriptor: { range: readonly [number, number] }): void;
      ignore(descriptor: unknown): void;
      createTranslator(messages: unknown): (id: string, props?: unknown) => string;
    },
    options: { allows: string[] },
  ): { file?(source: VendorSource): unknown };
}

interface VendorSource {
  content: string;
  filePath?: string;
  ext: string;
  contentType: "text";
}

export interface VendorFinding {
  kind: RedactionKind;
  start: number;
  end: number;
}

/*
 * Left out: filter-comments (a `secretlint-disable` directive would let a pasted comment switch
 * redaction off) and gcp (it only reads .json and .p12 files, asynchronously; the private-key rule
 * in ./rules.ts covers a pasted service-account key).
 */
const SKIPPED = new Set([
  "@secretlint/secretlint-rule-filter-comments",
  "@secretlint/secretlint-rule-gcp",
]);

const KIND_BY_RULE: Record<string, RedactionKind> = {
  "@secretlint/secretlint-rule-privatekey": "private_key",
  "@secretlint/secretlint-rule-basicauth": "connection_string",
  "@secretlint/secretlint-rule-database-connection-string": "connection_string",
  "@secretlint/secretlint-rule-npm": "npm_token",
};

function kindOf(ruleId: string, value: string): RedactionKind {
  if (ruleId === "@secretlint/secretlint-rule-slack" && value.includes("hooks.slack.com")) {
    return "slack_webhook";
  }
  if (ruleId === "@secretlint/secretlint-rule-aws" && !/^(?:AKIA|ASIA|A3T)/.test(value)) {
    return "aws_secret_key";
  }
  return KIND_BY_RULE[ruleId] ?? "api_key";
}

const translator = () => () => "";

const RULES = (presetRules as unknown as VendorRule[]).filter((rule) => !SKIPPED.has(rule.meta.id));

/*
 * Some vendor rules report a range that starts at the name before the value (`_authToken=…`) and
 * is as long as the value alone, so it can stop short of the value's end. A finding is therefore
 * widened to the end of the token it ends in: what is masked always covers the whole value.
 */
const TOKEN_CHAR = /[^\s"'`,;<>()[\]{}]/;

function widen(text: string, end: number): number {
  let i = end;
  while (i < text.length && TOKEN_CHAR.test(text[i] as string)) i++;
  return i;
}

/** Every vendor finding in `text`, in text order, overlapping ones merged. */
export function vendorFindings(text: string): VendorFinding[] {
  const found: VendorFinding[] = [];
  const source: VendorSource = { content: text, ext: "", contentType: "text" };
  for (const rule of RULES) {
    const handler = rule.create(
      {
        report: ({ range: [start, end] }) => {
          if (end > start)
            found.push({
              kind: kindOf(rule.meta.id, text.slice(start, end)),
              start,
              end: widen(text, end),
            });
        },
        ignore: () => {},
        createTranslator: translator,
      },
      { allows: [] },
    );
    handler.file?.(source);
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: VendorFinding[] = [];
  for (const f of found) {
    const last = merged.at(-1);
    if (last && f.start < last.end) last.end = Math.max(last.end, f.end);
    else merged.push({ ...f });
  }
  return merged;
}
