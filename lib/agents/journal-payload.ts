// The form a run event's payload is stored in (docs/journal.md): every string masked by the
// project's redaction engine, long strings, long arrays and deep nesting cut with a note of what
// was left out, and the whole at most 8 KiB of JSON. Pure, so the limits are tested directly.
import { redactText } from "@/core/redact/engine";
import { ENTROPY_KEYWORDS } from "@/core/redact/entropy";
import { type RedactionKind, redactionMarker } from "@/core/redact/kinds";

export const PAYLOAD_LIMITS = {
  /** Characters kept of one string; the rest is replaced by "… [truncated N chars]". */
  stringChars: 2_000,
  /** Items kept of one array; a note of how many more there were follows them. */
  arrayItems: 50,
  /** Levels of objects and arrays, the payload itself the first; deeper ones become a note. */
  depth: 5,
  /** Bytes of the whole payload as UTF-8 JSON; the largest top-level fields go first. */
  jsonBytes: 8 * 1024,
} as const;

/**
 * Characters of one string that are redacted before it is cut. Redacting the whole of a
 * megabyte tool result would cost far more than the 2,000 characters kept; this margin leaves
 * room for markers shorter than what they replace without a secret straddling the cut.
 */
const REDACT_WINDOW = 16 * PAYLOAD_LIMITS.stringChars;

/**
 * Characters of output built before the rest is skipped: a payload of 50-item arrays nested
 * five deep has millions of leaves, and all but ~8 KiB of them would be dropped anyway.
 */
const WORK_BUDGET = 8 * PAYLOAD_LIMITS.jsonBytes;

/** How many dropped field names the stored payload lists (and how long each may be). */
const DROPPED_NAMES = 20;
const DROPPED_NAME_CHARS = 100;

const TOO_DEEP = "… [nested too deep]";
const SKIPPED = "… [skipped]";

interface Walk {
  /** Output characters still allowed (a rough count of what the JSON will hold). */
  budget: number;
  truncated: boolean;
}

/** A key that names a secret (`password`, `OPENAI_API_KEY`): its value is redacted as such. */
const SECRET_KEY = /^[A-Za-z_][\w.-]{0,63}$/;

function redactString(value: string, key: string | null): string {
  if (key !== null && SECRET_KEY.test(key) && ENTROPY_KEYWORDS.test(key)) {
    // `password: "hunter2!"` as JSON loses the context the assignment rules look for; redacting
    // `key=value` restores it. Should the key itself be rewritten, the value goes whole.
    const prefix = `${key}=`;
    const keyed = redactText(prefix + value);
    if (keyed.text.startsWith(prefix)) return redactText(keyed.text.slice(prefix.length)).text;
    const kind: RedactionKind = keyed.kinds[0] ?? "password";
    return redactionMarker(kind);
  }
  return redactText(value).text;
}

function cappedString(value: string, key: string | null, walk: Walk): string {
  const window = value.length > REDACT_WINDOW ? value.slice(0, REDACT_WINDOW) : value;
  const redacted = redactString(window, key);
  const fullLength = redacted.length + (value.length - window.length);
  const limit = PAYLOAD_LIMITS.stringChars;
  if (fullLength <= limit) return redacted;
  walk.truncated = true;
  return `${redacted.slice(0, limit)}… [truncated ${fullLength - limit} chars]`;
}

function cappedValue(value: unknown, key: string | null, level: number, walk: Walk): unknown {
  if (walk.budget <= 0) {
    walk.truncated = true;
    return SKIPPED;
  }
  if (value === null || value === undefined) return value === null ? null : undefined;
  if (typeof value === "string") {
    const out = cappedString(value, key, walk);
    walk.budget -= out.length + 2;
    return out;
  }
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "boolean") return value;
  if (typeof value === "bigint") return cappedString(value.toString(), key, walk);
  if (typeof value !== "object") return undefined; // functions and symbols have no JSON form
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? null : value.toISOString();
  }
  if (value instanceof Error) {
    return cappedValue({ name: value.name, message: value.message }, key, level, walk);
  }
  if (level >= PAYLOAD_LIMITS.depth) {
    walk.truncated = true;
    return TOO_DEEP;
  }
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const item of value) {
      if (kept.length >= PAYLOAD_LIMITS.arrayItems || walk.budget <= 0) break;
      kept.push(cappedValue(item, key, level + 1, walk) ?? null);
      walk.budget -= 1;
    }
    const more = value.length - kept.length;
    if (more > 0) {
      walk.truncated = true;
      kept.push(`… [${more} more items]`);
    }
    return kept;
  }
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    if (walk.budget <= 0) {
      walk.truncated = true;
      break;
    }
    const field = cappedString(name, null, walk);
    const copied = cappedValue(item, name, level + 1, walk);
    if (copied !== undefined) out[field] = copied;
    walk.budget -= field.length + 4;
  }
  return out;
}

const encoder = new TextEncoder();
const jsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/** Drops the largest top-level fields until the JSON fits, listing them in `droppedFields`. */
function fitted(payload: Record<string, unknown>): Record<string, unknown> {
  let total = jsonBytes(payload);
  if (total <= PAYLOAD_LIMITS.jsonBytes) return payload;
  // A field's share of the whole: `"name":value` and its comma.
  const sizes = Object.entries(payload)
    .map(([name, value]) => ({ name, bytes: jsonBytes({ [name]: value }) - 1 }))
    .sort((a, b) => b.bytes - a.bytes);
  const kept = { ...payload };
  const dropped: string[] = [];
  const withNote = () => ({
    ...kept,
    truncated: true,
    droppedFields: dropped.slice(0, DROPPED_NAMES).map((n) => n.slice(0, DROPPED_NAME_CHARS)),
    ...(dropped.length > DROPPED_NAMES ? { droppedFieldCount: dropped.length } : {}),
  });
  // The flag and the count, then each listed name (quoted, with its comma).
  let noteBytes = 64;
  for (const { name, bytes } of sizes) {
    // The running totals only spare re-encoding the whole each time; the check below is exact.
    if (total + noteBytes <= PAYLOAD_LIMITS.jsonBytes) break;
    delete kept[name];
    if (dropped.length < DROPPED_NAMES) {
      noteBytes += encoder.encode(name.slice(0, DROPPED_NAME_CHARS)).length + 3;
    }
    dropped.push(name);
    total -= bytes;
  }
  let result = withNote();
  for (const { name } of sizes) {
    if (jsonBytes(result) <= PAYLOAD_LIMITS.jsonBytes) break;
    if (!(name in kept)) continue;
    delete kept[name];
    dropped.push(name);
    result = withNote();
  }
  return result;
}

/**
 * The payload as the journal stores it: redacted, capped, at most PAYLOAD_LIMITS.jsonBytes of
 * JSON. `truncated: true` is set when anything was cut; the input is not mutated. Each
 * top-level field has a work budget of its own, so one huge field cannot starve the small ones
 * (token counts, names) that survive the drop.
 */
export function cappedPayload(payload: Record<string, unknown>): Record<string, unknown> {
  let truncated = false;
  const object: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(payload)) {
    const walk: Walk = { budget: WORK_BUDGET, truncated: false };
    const field = cappedString(name, null, walk);
    const copied = cappedValue(value, name, 1, walk);
    if (copied !== undefined) object[field] = copied;
    truncated ||= walk.truncated;
  }
  return fitted(truncated ? { ...object, truncated: true } : object);
}
