// Pure text operations behind edit_file and read_file: exact-match replacement and numbered
// line windows bounded in bytes.
import { READ_MAX_BYTES, truncateUtf8, utf8Bytes } from "./limits";

/** Non-overlapping occurrences of needle in text. */
export function countOccurrences(text: string, needle: string): number {
  if (needle === "") return 0;
  let count = 0;
  let from = 0;
  for (;;) {
    const at = text.indexOf(needle, from);
    if (at === -1) return count;
    count += 1;
    from = at + needle.length;
  }
}

export type ReplaceResult = { ok: true; content: string } | { ok: false; error: string };

/** Replaces `old` by `replacement` when it occurs exactly once; otherwise names the count. */
export function replaceExactlyOnce(text: string, old: string, replacement: string): ReplaceResult {
  if (old === "") return { ok: false, error: "`old` is empty; give the exact text to replace." };
  const count = countOccurrences(text, old);
  if (count !== 1) {
    return {
      ok: false,
      error:
        count === 0
          ? "`old` was found 0 times; it must match the file's text exactly once (read the file to copy it)."
          : `\`old\` was found ${count} times; it must match exactly once — include more surrounding text.`,
    };
  }
  const at = text.indexOf(old);
  return { ok: true, content: text.slice(0, at) + replacement + text.slice(at + old.length) };
}

/** Lines of a file; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

export interface LineWindow {
  /** `N: text` per line, joined with newlines. */
  numbered: string;
  startLine: number;
  /** The last line included (startLine - 1 when none fit or the range is empty). */
  endLine: number;
  /** The window stopped before the requested end to stay within the byte budget. */
  truncated: boolean;
}

/** Ends a line cut to fit the read budget: such a window does not hold the whole line. */
export const LONG_LINE_MARK = " … [line cut: longer than the read budget]";

/**
 * Lines [startLine, endLine] (1-based, inclusive), numbered `N: text`, stopping before the
 * budget is exceeded. At least one line is returned when the range is not empty; a line longer
 * than the budget is cut with a marker.
 */
export function numberedWindow(
  lines: string[],
  startLine: number,
  endLine: number,
  maxBytes = READ_MAX_BYTES,
): LineWindow {
  const last = Math.min(endLine, lines.length);
  const out: string[] = [];
  let bytes = 0;
  let line = startLine;
  for (; line <= last; line++) {
    let entry = `${line}: ${lines[line - 1] ?? ""}`;
    const size = utf8Bytes(entry) + 1;
    if (bytes + size > maxBytes) {
      if (out.length > 0) break;
      entry = truncateUtf8(entry, maxBytes - utf8Bytes(LONG_LINE_MARK)) + LONG_LINE_MARK;
      out.push(entry);
      line += 1;
      break;
    }
    out.push(entry);
    bytes += size;
  }
  return {
    numbered: out.join("\n"),
    startLine,
    endLine: line - 1,
    truncated: line - 1 < last,
  };
}
