// The high-entropy rule: a long random-looking token close after a word like key, secret, token,
// password or credential is taken for a secret even when no format rule knows it ("the deploy
// token for staging: 7hQ…"). Random-looking means long, high Shannon entropy and mixed character
// classes that switch often, which sets it apart from hex ids (one case), camelCase identifiers
// and words (classes switch rarely) and paths.
import { MARKER_PATTERN, redactionMarker } from "./kinds";

const MIN_LENGTH = 20;
/** Bits per character; random base62 of 20+ characters scores 3.6 or more. */
const MIN_ENTROPY = 3.5;
/** Share of adjacent pairs whose class (upper, lower, digit, symbol) differs; random base62 ~0.6. */
const MIN_SWITCH_RATE = 0.3;
/**
 * Share of characters inside word-like runs (`Secret`, `from`: letters with a vowel and no four
 * consonants in a row); identifiers score 0.6-0.9, random
 * base62 about 0.15. With the switch rate this lets ~2% of random tokens through unmasked, which
 * is the price of leaving identifiers like `getSecretAccessKeyFromVault2` alone.
 */
const MAX_WORDY = 0.5;
/** How far before a token (same line) a keyword may stand. */
const WINDOW = 48;

export const ENTROPY_KEYWORDS = /key|secret|token|passw|pwd|credential|auth/i;
const CANDIDATE = /[A-Za-z0-9+/=_~.-]{20,}/g;

export function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const classOf = (ch: string) =>
  ch >= "A" && ch <= "Z" ? 0 : ch >= "a" && ch <= "z" ? 1 : ch >= "0" && ch <= "9" ? 2 : 3;

export function looksRandom(token: string): boolean {
  // Padding and trailing dots or dashes are not part of what makes a token random.
  const core = token.replace(/[=.-]+$/, "");
  if (core.length < MIN_LENGTH) return false;
  if (!/[A-Z]/.test(core) || !/[a-z]/.test(core) || !/\d/.test(core)) return false;
  let switches = 0;
  for (let i = 1; i < core.length; i++) {
    if (classOf(core[i] as string) !== classOf(core[i - 1] as string)) switches++;
  }
  if (switches / (core.length - 1) < MIN_SWITCH_RATE) return false;
  const wordy = (core.match(/[A-Z]?[a-z]{2,}/g) ?? [])
    .filter((run) => /[aeiouy]/i.test(run) && !/[^aeiouy]{4}/i.test(run))
    .join("").length;
  if (wordy / core.length >= MAX_WORDY) return false;
  return shannonEntropy(core) >= MIN_ENTROPY;
}

/** The end of a sentence: a keyword before it speaks of something else ("… tokens. Payload X"). */
const SENTENCE_END = /[.!?]\s+(?=\S)/g;

/**
 * The text a keyword must be in: up to WINDOW characters before `offset` on its line and in its
 * sentence, markers left out (`[REDACTED:api_key]` names a key but is not one), including one
 * cut by the window.
 */
function windowBefore(text: string, offset: number): string {
  // Only the window is searched for the line start, so a long line costs no more per token.
  const raw = text.slice(Math.max(0, offset - WINDOW - 32), offset);
  const line = raw.slice(raw.lastIndexOf("\n") + 1);
  let sentenceStart = 0;
  for (const end of line.matchAll(SENTENCE_END)) sentenceStart = end.index + end[0].length;
  return line
    .slice(sentenceStart)
    .replace(MARKER_PATTERN, " ")
    .replace(/^[A-Za-z_:]*\]/, "")
    .slice(-WINDOW);
}

function pass(text: string): string {
  return text.replace(CANDIDATE, (token: string, offset: number) => {
    const before = windowBefore(text, offset);
    // A data: URI's payload is content, and a URL's path is an address, whatever precedes them.
    if (/base64,$/.test(before) || token.startsWith("//") || /\/\/\S*$/.test(before)) {
      return token;
    }
    if (!ENTROPY_KEYWORDS.test(before) || !looksRandom(token)) return token;
    return redactionMarker("high_entropy");
  });
}

/**
 * Masks each random-looking token that follows a keyword on its line; reports whether any was.
 * A marker is shorter or longer than what it hides, so masking can bring a keyword into a later
 * token's window: passes repeat until nothing changes (each masks at least one token), which is
 * what keeps redaction idempotent.
 */
export function redactHighEntropy(text: string): { text: string; found: boolean } {
  if (!ENTROPY_KEYWORDS.test(text)) return { text, found: false };
  let out = text;
  for (;;) {
    const next = pass(out);
    if (next === out) return { text: out, found: out !== text };
    out = next;
  }
}
