// The revised version of a file the offline model writes for `polish <path>` and its kin: a
// pure function of the file's lines (trailing blanks trimmed, sentences capitalized and closed,
// a heading when it has none, a revision line), which always differs from what it read.

export interface Revision {
  /** The new content, ending in a newline. */
  text: string;
  /** What changed, as phrases for a reply ("added the heading “# Draft”"). */
  changes: string[];
}

/** The line every revision ends with; its pass number grows by one on each revision. */
const REVISION_LINE = /^_Revised \(pass (\d+)\)\._$/;

const FENCE = /^(?:```|~~~)/;
// Lines whose text is structure, not prose: left exactly as they are (trailing blanks aside).
const VERBATIM = [
  /^ {0,3}#{1,6}(?:\s|$)/, // heading
  /^\s*\|/, // table row
  /^\s*>/, // block quote
  /^\s*</, // HTML
  /^\s*([-*_])(?:\s*\1){2,}\s*$/, // rule
  /^(?: {4}|\t)/, // indented code
];
const LIST_ITEM = /^(\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?)(.*)$/;
// Only a plain lowercase word is capitalized: never a path, identifier, number or code.
const PLAIN_WORD = /^\p{Ll}[\p{Ll}'’-]*$/u;
const LEADING_WORD = /^([*_"“(]*)(\S+?)(?=[\s,;:!?.…)"”*_]|$)/u;
const SENTENCE_START = /([.!?]["”)]?\s+)([*_"“(]*)(\S+?)(?=[\s,;:!?.…)"”*_]|$)/gu;
const ABBREVIATION = /(?:^|\s)(?:e\.g|i\.e|etc|vs|cf)\.$/i;
const NEEDS_PERIOD = /[\p{L}\p{N})\]"”’'`*_]$/u;

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

interface LineFix {
  text: string;
  capitalized: number;
  closed: boolean;
  /** Runs of spaces between words were made one. */
  spaced: boolean;
}

function capitalizeSentences(text: string): { text: string; count: number } {
  let count = 0;
  const upper = (word: string) => {
    if (!PLAIN_WORD.test(word)) return word;
    count++;
    return capitalize(word);
  };
  let out = text.replace(LEADING_WORD, (_m, marks: string, word: string) => marks + upper(word));
  out = out.replace(
    SENTENCE_START,
    (match: string, end: string, marks: string, word: string, at: number, whole: string) =>
      ABBREVIATION.test(whole.slice(0, at + 1)) ? match : end + marks + upper(word),
  );
  return { text: out, count };
}

function reviseLine(line: string): LineFix {
  if (VERBATIM.some((pattern) => pattern.test(line))) {
    return { text: line, capitalized: 0, closed: false, spaced: false };
  }
  const item = LIST_ITEM.exec(line);
  const lead = item ? (item[1] ?? "") : (/^\s*/.exec(line)?.[0] ?? "");
  const text = line.slice(lead.length);
  const words = text.replace(/(\S) {2,}(?=\S)/g, "$1 ");
  const spaced = words !== text;
  const fixed = capitalizeSentences(words);
  const closed = !item && NEEDS_PERIOD.test(fixed.text);
  return {
    text: lead + fixed.text + (closed ? "." : ""),
    capitalized: fixed.count,
    closed,
    spaced,
  };
}

/** `notes/launch-plan.md` → `Launch Plan`. */
function titleOfPath(path: string): string {
  const base = path.split("/").filter(Boolean).at(-1) ?? path;
  const stem = base.replace(/\.[^.]+$/, "") || base;
  const words = stem
    .split(/[-_.\s]+/)
    .filter(Boolean)
    .map(capitalize);
  return words.join(" ") || "Notes";
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The revision of the file at `path` whose lines are `lines`. */
export function reviseText(path: string, lines: readonly string[]): Revision {
  const body: string[] = [];
  let tidied = 0;
  let capitalized = 0;
  let closed = 0;
  let blanks = 0;
  let pass = 0;
  let fenced = false;
  let blankRun = 0;
  // Blank lines: one between blocks, none at the start (or the end: they are never flushed).
  const flushBlanks = () => {
    if (blankRun === 0) return;
    if (body.length > 0) body.push("");
    blanks += body.length > 0 ? blankRun - 1 : blankRun;
    blankRun = 0;
  };
  for (const raw of lines) {
    if (fenced) {
      body.push(raw);
      if (FENCE.test(raw.trim())) fenced = false;
      continue;
    }
    const line = raw.trimEnd();
    const trimmed = line !== raw;
    if (FENCE.test(line.trim())) {
      flushBlanks();
      if (trimmed) tidied++;
      fenced = true;
      body.push(line);
      continue;
    }
    const revision = REVISION_LINE.exec(line.trim());
    if (revision) {
      pass = Math.max(pass, Number(revision[1]));
      continue;
    }
    if (line.trim() === "") {
      blankRun++;
      continue;
    }
    flushBlanks();
    const fix = reviseLine(line);
    if (trimmed || fix.spaced) tidied++;
    body.push(fix.text);
    capitalized += fix.capitalized;
    if (fix.closed) closed++;
  }
  const changes: string[] = [];
  const first = body.find((line) => line !== "");
  if (first === undefined || !/^#{1,6}\s/.test(first)) {
    const heading = `# ${titleOfPath(path)}`;
    body.unshift(heading, ...(body.length ? [""] : []));
    changes.push(`added the heading “${heading}”`);
  }
  if (capitalized) changes.push(`capitalized ${plural(capitalized, "sentence")}`);
  if (closed) changes.push(`ended ${plural(closed, "line")} with a period`);
  if (tidied) changes.push(`tidied the spacing of ${plural(tidied, "line")}`);
  if (blanks) changes.push(`removed ${plural(blanks, "extra blank line")}`);
  changes.push(`marked it as revision ${pass + 1}`);
  return { text: `${[...body, "", `_Revised (pass ${pass + 1})._`].join("\n")}\n`, changes };
}
