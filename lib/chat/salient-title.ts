// A short title from a message's salient words, without a model: the offline model's titles and
// the fallback when a model's title is unusable. Pure.
const STOPWORDS = new Set(
  (
    "a an the and or but if then so of to in on at by for with from into onto about as is are was " +
    "were be been being am do does did doing have has had having i me my we our you your he she it " +
    "its they them their this that these those there here what which who whom whose when where why " +
    "how can could would should will shall may might must please let lets let's just also very " +
    "some any all each every no not only own same than too up down out over under again further " +
    "once hi hello hey thanks thank ok okay yes want need like help make get tell give write " +
    "remember note decide todo done recall"
  ).split(" "),
);

/** What salientTitle answers for a message with no salient word. */
export const NO_TITLE = "New chat";

/** The most words a title has. */
export const TITLE_MAX_WORDS = 6;
const TITLE_MAX_CHARS = 60;

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * Up to five words of the message that carry its meaning (no stopwords, no command words, no
 * code or links), in their order, the first capitalized; "New chat" when none is left.
 */
export function salientTitle(message: string): string {
  const prose = message
    .replace(/```[\s\S]*?(```|$)/g, " ")
    .replace(/`[^`]*`/g, " ")
    .replace(/https?:\/\/\S+/g, " ");
  const words: string[] = [];
  const seen = new Set<string>();
  for (const raw of prose.split(/\s+/)) {
    // A masked secret ([REDACTED:kind]) is no word of the topic.
    if (raw.includes("[REDACTED")) continue;
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    const key = word.toLowerCase();
    if (word.length < 2 || STOPWORDS.has(key) || seen.has(key) || /^\d+$/.test(word)) continue;
    seen.add(key);
    words.push(word);
    if (words.length === 5) break;
  }
  if (words.length === 0) return NO_TITLE;
  return clip([capitalize(words[0] ?? ""), ...words.slice(1)].join(" "));
}

function clip(title: string): string {
  if (title.length <= TITLE_MAX_CHARS) return title;
  const cut = title.slice(0, TITLE_MAX_CHARS);
  return cut.slice(0, Math.max(cut.lastIndexOf(" "), 1)).trimEnd();
}

/**
 * A model's answer as a title: first line, no quotes, markdown or trailing punctuation, at most
 * six words; null when nothing usable is left.
 */
export function cleanModelTitle(text: string): string | null {
  const line =
    text
      .trim()
      .split("\n")
      .find((l) => l.trim() !== "") ?? "";
  const plain = line
    .replace(/^\s*(title\s*:\s*)/i, "")
    .replace(/[*_#`>]/g, "")
    .replace(/^["'“”‘’\s]+|["'“”‘’\s.!?:;,]+$/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (plain === "") return null;
  return clip(plain.split(" ").slice(0, TITLE_MAX_WORDS).join(" "));
}
