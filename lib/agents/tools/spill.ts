// Large tool results: a result above the threshold is stored as `.baton/results/<call-id>.txt`
// (a tool_result file: outside the file count and files_modified) and the model gets the first
// 2 KiB, the path and how to read on with read_file. The built-in factory wraps its tools with
// withSpill; the run loop wraps other tools (MCP) the same way. read_file is never spilled: its
// output is already a bounded window, so reading a spill file cannot spill again.
import "server-only";
import type { Tool } from "ai";
import { getDb } from "@/db/client";
import { writeFile } from "@/db/queries/workspace";
import {
  MAX_FILE_BYTES,
  SPILL_PREVIEW_BYTES,
  SPILL_THRESHOLD_BYTES,
  truncateUtf8,
  utf8Bytes,
} from "@/lib/workspace/limits";
import { TOOL_RESULTS_DIR } from "@/lib/workspace/paths";
import { splitLines } from "@/lib/workspace/text";
import type { ToolContext } from "./context";

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
      for (let i = 0; i < line.length; i += width) parts.push(line.slice(i, i + width));
      return parts;
    })
    .join("\n");
}

/** `.baton/results/<call-id>.txt`, the id reduced to characters safe in a path. */
export function spillPath(toolCallId: string): string {
  const id = toolCallId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 120) || "result";
  return `${TOOL_RESULTS_DIR}${id}.txt`;
}

/**
 * The spill file's content and what the model is told, computed without I/O: the stored text is
 * cut at the file size limit (the note says so).
 */
export function planSpill(toolCallId: string, serialized: string) {
  const bytes = utf8Bytes(serialized);
  const wrapped = wrapLongLines(serialized);
  const cut = utf8Bytes(wrapped) > MAX_FILE_BYTES;
  const content = cut ? truncateUtf8(wrapped, MAX_FILE_BYTES) : wrapped;
  const path = spillPath(toolCallId);
  const totalLines = splitLines(content).length;
  const note =
    `The result was ${bytes} bytes, too large to show whole; it is stored in ${path} ` +
    `(${totalLines} lines${cut ? `, cut at ${MAX_FILE_BYTES} bytes` : ""}). Shown above: the first ` +
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

export type SpillInput = Pick<ToolContext, "userId" | "threadId" | "sessionId" | "runId" | "db"> & {
  toolName: string;
  toolCallId: string;
  output: unknown;
  thresholdBytes?: number;
};

/** The output itself when small enough (or never spilled), otherwise a SpilledResult. */
export async function spillLargeResult(input: SpillInput): Promise<unknown> {
  const { output, toolName, toolCallId } = input;
  if (NEVER_SPILLED.has(toolName)) return output;
  const serialized = serializeResult(output);
  if (utf8Bytes(serialized) <= (input.thresholdBytes ?? SPILL_THRESHOLD_BYTES)) return output;
  const spill = planSpill(toolCallId, serialized);
  const result: SpilledResult = {
    spilled: true,
    path: spill.path,
    bytes: spill.bytes,
    totalLines: spill.totalLines,
    preview: spill.preview,
    note: spill.note,
  };
  await writeFile((input.db ?? getDb)(), {
    userId: input.userId,
    threadId: input.threadId,
    path: spill.path,
    content: spill.content,
    kind: "tool_result",
    sessionId: input.sessionId,
    runId: input.runId,
    toolCallId,
  });
  return result;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}

/**
 * The same tool with its output passed through spillLargeResult. Streaming tools (an
 * AsyncIterable of preliminary results) are left as they are.
 */
export function withSpill<INPUT, OUTPUT>(
  toolName: string,
  original: Tool<INPUT, OUTPUT>,
  ctx: ToolContext,
): Tool<INPUT, OUTPUT | SpilledResult> {
  const execute = original.execute;
  if (!execute || NEVER_SPILLED.has(toolName))
    return original as Tool<INPUT, OUTPUT | SpilledResult>;
  return {
    ...original,
    execute: async (input, options) => {
      const output = await execute(input, options);
      if (isAsyncIterable(output)) return output as never;
      return (await spillLargeResult({
        ...ctx,
        toolName,
        toolCallId: options.toolCallId,
        output,
        thresholdBytes: ctx.spillThresholdBytes,
      })) as OUTPUT | SpilledResult;
    },
  } as Tool<INPUT, OUTPUT | SpilledResult>;
}
