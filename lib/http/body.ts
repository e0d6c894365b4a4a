// Reading request bodies safely: the size limit is checked against Content-Length before a byte
// is read and enforced again while the body streams (a missing or lying header changes nothing),
// and JSON is refused when it nests too deeply or carries text Postgres cannot store.
import { BatonError, type FieldErrors } from "@/core/errors";

/** The limit every JSON route has unless it says otherwise (documented in the README). */
export const DEFAULT_MAX_BODY_BYTES = 256_000;
/** Deeper JSON than this is refused before any schema sees it. */
const MAX_JSON_DEPTH = 64;

function tooLarge(maxBytes: number): BatonError {
  return new BatonError(
    "payload_too_large:body",
    `The request body is larger than ${maxBytes} bytes.`,
  );
}

/** The body as text, read at most `maxBytes` far; larger bodies are refused unread. */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined); // the client may already be gone
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Parses JSON text; an empty body is `undefined` (the route's schema decides if that is ok). */
export function parseJsonText(text: string): unknown {
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BatonError("bad_request:json", "The body is not valid JSON.");
  }
  const problems = unstorableText(value, "");
  if (problems) throw new BatonError("bad_request:body", "The request is invalid.", problems);
  return value;
}

/** NUL and lone surrogates: valid in JS strings, refused by Postgres text and jsonb columns. */
function isStorableText(text: string): boolean {
  return !text.includes("\u0000") && text.isWellFormed();
}

const UNSTORABLE = "Contains a NUL character or an unpaired surrogate.";

/**
 * Field errors for every string (and object key) that cannot be stored, or for nesting deeper
 * than MAX_JSON_DEPTH; null when the value is fine. Iterative, so no input can overflow the stack.
 */
export function unstorableText(value: unknown, root: string): FieldErrors | null {
  const fields: FieldErrors = {};
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value, path: root, depth: 0 },
  ];
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const label = item.path === "" ? "(body)" : item.path;
    if (typeof item.value === "string") {
      if (!isStorableText(item.value)) fields[label] = [UNSTORABLE];
      continue;
    }
    if (item.value === null || typeof item.value !== "object") continue;
    if (item.depth >= MAX_JSON_DEPTH) {
      fields[label] = [`Nested more than ${MAX_JSON_DEPTH} levels deep.`];
      continue;
    }
    for (const [key, child] of Object.entries(item.value)) {
      const path = item.path === "" ? key : `${item.path}.${key}`;
      if (!isStorableText(key)) fields[path] = [UNSTORABLE];
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return Object.keys(fields).length > 0 ? fields : null;
}
