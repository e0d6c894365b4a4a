// Large tool results: a result above the threshold is stored as `.baton/results/<call-id>.txt`
// (a tool_result file: outside the file count and files_modified) and the model gets the first
// 2 KiB, the path and how to read on with read_file. The built-in factory wraps its tools with
// withSpill; the run loop wraps other tools (MCP) the same way. read_file is never spilled: its
// output is already a bounded window, so reading a spill file cannot spill again.
import "server-only";
import type { Tool } from "ai";
import { SPILL_THRESHOLD_BYTES, utf8Bytes } from "@/core/workspace/limits";
import { getDb } from "@/db/client";
import { writeFile } from "@/db/queries/workspace";
import type { ToolContext } from "./context";
import { NEVER_SPILLED, planSpill, type SpilledResult, serializeResult } from "./spill-format";

export type { SpilledResult } from "./spill-format";

type SpillInput = Pick<ToolContext, "userId" | "threadId" | "sessionId" | "runId" | "db"> & {
  toolName: string;
  toolCallId: string;
  output: unknown;
  thresholdBytes?: number;
};

/** The output itself when small enough (or never spilled), otherwise a SpilledResult. */
async function spillLargeResult(input: SpillInput): Promise<unknown> {
  const { output, toolName, toolCallId } = input;
  if (NEVER_SPILLED.has(toolName)) return output;
  // Measured as the provider is sent it (compact JSON); stored indented, for line ranges.
  const sent = typeof output === "string" ? output : (JSON.stringify(output) ?? "");
  if (utf8Bytes(sent) <= (input.thresholdBytes ?? SPILL_THRESHOLD_BYTES)) return output;
  const spill = planSpill(toolCallId, serializeResult(output));
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
