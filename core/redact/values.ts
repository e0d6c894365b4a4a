// Telling a secret value from a reference or placeholder after `password=` / `api_key:` / a
// `--password` flag: masking `password: string` or `PGPASSWORD=$DB_PASSWORD` would mangle code and
// docs for no gain.
import { MARKER_PREFIX, type RedactionKind, redactionMarker } from "./kinds";

const REFERENCE =
  /^(?:\[REDACTED:.*|\$\{?[A-Z_][A-Z0-9_]*\}?|%[A-Z_][A-Z0-9_]*%|<[^>]*>|(?:process\.)?env\.[A-Z_][A-Z0-9_]*|os\.environ\S*)$/;
const PLACEHOLDER =
  /^(?:\*+|x+|\.{3}|…|string|str|number|boolean|bool|null|nil|none|undefined|true|false|text|varchar|required|optional|redacted|hidden|changeme|secret|password)$/i;

export function isPlaceholder(value: string): boolean {
  return REFERENCE.test(value) || PLACEHOLDER.test(value);
}

/** A value that is already a marker (a second pass sees the first pass's output). */
export const isMarked = (value: string) => value.startsWith(MARKER_PREFIX);

/**
 * The replacement for `prefix` followed by a quoted or bare value: the prefix and quotes stay so
 * the line still reads as what it was; null keeps the match as it is.
 */
export function assignment(
  prefix: string | undefined,
  doubleQuoted: string | undefined,
  singleQuoted: string | undefined,
  bare: string | undefined,
  kind: RedactionKind,
): string | null {
  const value = doubleQuoted ?? singleQuoted ?? bare ?? "";
  if (isPlaceholder(value) || isMarked(value)) return null;
  const quote = doubleQuoted !== undefined ? '"' : singleQuoted !== undefined ? "'" : "";
  return `${prefix}${quote}${redactionMarker(kind)}${quote}`;
}

/**
 * A value in prose ("my password is X") counts only if it does not read as a word: it has a
 * digit, a symbol or an inner capital. That keeps "the password is required" intact.
 */
export function looksLikeSecretWord(value: string): boolean {
  if (value.length < 4 || isPlaceholder(value) || isMarked(value)) return false;
  return /\d|[^\p{L}\d]|\p{Ll}\p{Lu}/u.test(value);
}
