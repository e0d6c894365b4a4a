// The pure half of spilling a large tool result: what is stored in the spill file and what the
// model is told instead (spill.ts does the writing).
import {
  MAX_FILE_BYTES,
  SPILL_PREVIEW_BYTES,
  truncateUtf8,
  utf8Bytes,
} from "@/core/workspace/limits";
import { TOOL_RESULTS_DIR } from "@/core/workspace/paths";
import { splitLines } from "@/core/workspace/text";

/** Tools whose output is never spilled (their output is bounded by design). */
export const NEVER_SPILLED = new Set(["read_file"]);

/** Spill files wrap long lines so that any line range stays small enough to read. */
export const SPILL_LINE_CHARS = 1000;

export interface SpilledResult {
  spilled: true;
  path: string;
  /** Size of the full result as serialized, before any cut. */
  bytes: number;
  totalLines: number;
  preview: string;
  note: string;
}

/** The text a result is stored as: strings as they are, anything else as indented JSON. */
export function serializeResult(output: unknown): string {
  if (typeof output === "string") return output;
  return JSON.stringify(output, null, 2) ?? String(output);
}

export function wrapLongLines(text: string, width = SPILL_LINE_CHARS): string {
  return text
    .split("\n")
    .flatMap((line) => {
      if (line.length <= width) return [line];
      const parts: string[] = [];
      let from = 0;
      while (from < line.length) {
        let to = Math.min(from + width, line.length);
        // Never cut between the two halves of a surrogate pair.
        const code = line.charCodeAt(to - 1);
        if (to < line.length && code >= 0xd800 && code <= 0xdbff) to -= 1;
        parts.push(line.slice(from, to));
        from = to;
      }
      return parts;
    })
    .join("\n");
}

/** `.baton/results/<call-id>.txt`, the id reduced to characters safe in a path. */
export function spillPath(toolCallId: string): string {
  const id = toolCallId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 120) || "result";
  return `${TOOL_RESULTS_DIR}${id}.txt`;
}

export interface SpillPlan {
  path: string;
  content: string;
  bytes: number;
  totalLines: number;
  preview: string;
  note: string;
}

/**
 * The spill file's content and what the model is told, computed without I/O: the stored text is
 * cut at the file size limit (the note says so).
 */
export function planSpill(toolCallId: string, serialized: string): SpillPlan {
  const bytes = utf8Bytes(serialized);
  const wrapped = wrapLongLines(serialized);
  const cut = utf8Bytes(wrapped) > MAX_FILE_BYTES;
  const content = cut ? truncateUtf8(wrapped, MAX_FILE_BYTES) : wrapped;
  const path = spillPath(toolCallId);
  const totalLines = splitLines(content).length;
  const note =
    `The result was ${bytes} bytes, too large to show whole; it is stored in ${path} ` +
    `(${totalLines} lines${cut ? `, cut at ${MAX_FILE_BYTES} bytes` : ""}); \`preview\` holds its first ` +
    `${SPILL_PREVIEW_BYTES} bytes. Read more with read_file {"path": "${path}", "startLine": N, "endLine": M}.`;
  return {
    path,
    content,
    bytes,
    totalLines,
    preview: truncateUtf8(serialized, SPILL_PREVIEW_BYTES),
    note,
  };
}
