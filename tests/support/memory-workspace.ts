// An in-memory stand-in for the built-in workspace and plan tools: the real tool definitions
// (names, descriptions, schemas, approval) with executes over a Map, returning the same result
// shapes (`{ ok: true, … }` / `{ ok: false, error }`). For unit tests of a model's tool use.
import type { LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import type { ToolSet } from "ai";
import { type PlanItem, planItemsSchema } from "@/core/plan-items";
import { READ_MAX_BYTES, READ_PREVIEW_BYTES, utf8Bytes } from "@/core/workspace/limits";
import { normalizePath } from "@/core/workspace/paths";
import { numberedWindow, splitLines } from "@/core/workspace/text";
import { createBuiltinTools } from "@/lib/agents/tools";
import type { ToolDefinition } from "@/lib/ai/token-count";
import { toolDefinitionsOf } from "@/lib/ai/tool-definitions";

type Result = Record<string, unknown>;
const fail = (error: string): Result => ({ ok: false, error });

export interface MemoryWorkspace {
  files: Map<string, string>;
  plan: PlanItem[];
  /** Texts the `pin` tool pinned, in order. */
  pins: string[];
  /** Every executed call, in order. */
  calls: { toolName: string; input: Record<string, unknown> }[];
  /** AI SDK tools: the real definitions with in-memory executes. */
  tools: ToolSet;
  /** The tool definitions a model call receives for `tools`. */
  definitions(): Promise<ToolDefinition[]>;
  execute(toolName: string, input: Record<string, unknown>): Result;
}

function readWindow(path: string, content: string, start?: number, end?: number): Result {
  const lines = splitLines(content);
  const total = lines.length;
  const base = { ok: true, path, version: 1, totalLines: total, bytes: utf8Bytes(content) };
  if (start === undefined && end === undefined) {
    const whole = numberedWindow(lines, 1, total, READ_MAX_BYTES);
    if (!whole.truncated)
      return { ...base, startLine: 1, endLine: whole.endLine, content: whole.numbered };
    const preview = numberedWindow(lines, 1, total, READ_PREVIEW_BYTES);
    return {
      ...base,
      startLine: 1,
      endLine: preview.endLine,
      content: preview.numbered,
      hint: `"${path}" has ${total} lines; this is a preview of lines 1–${preview.endLine}.`,
    };
  }
  const window = numberedWindow(lines, start ?? 1, end ?? total, READ_MAX_BYTES);
  return {
    ...base,
    startLine: window.startLine,
    endLine: window.endLine,
    content: window.numbered,
  };
}

export function createMemoryWorkspace({
  deleteNeedsApproval = true,
}: {
  deleteNeedsApproval?: boolean;
} = {}): MemoryWorkspace {
  const files = new Map<string, string>();
  const calls: MemoryWorkspace["calls"] = [];
  const ws: MemoryWorkspace = {
    files,
    plan: [],
    pins: [],
    calls,
    tools: {},
    definitions: () => toolDefinitionsOf(ws.tools),
    execute(toolName, input) {
      calls.push({ toolName, input });
      const path = typeof input.path === "string" ? normalizePath(input.path) : null;
      if (path && !path.ok) return fail(path.error);
      const at = path?.ok ? path.path : "";
      switch (toolName) {
        case "list_files": {
          const list = [...files.keys()]
            .sort()
            .map((p) => ({ path: p, bytes: utf8Bytes(files.get(p) ?? "") }));
          return { ok: true, files: list, count: list.length };
        }
        case "read_file": {
          const content = files.get(at);
          if (content === undefined) return fail(`"${at}" does not exist.`);
          return readWindow(
            at,
            content,
            input.startLine as number | undefined,
            input.endLine as number | undefined,
          );
        }
        case "write_file": {
          const created = !files.has(at);
          files.set(at, String(input.content));
          return {
            ok: true,
            path: at,
            version: 1,
            bytes: utf8Bytes(String(input.content)),
            created,
          };
        }
        case "delete_file": {
          if (!files.delete(at)) return fail(`"${at}" does not exist.`);
          return { ok: true, path: at, deleted: true };
        }
        case "update_plan": {
          const parsed = planItemsSchema.safeParse(input.items);
          if (!parsed.success)
            return fail(`The plan is invalid: ${parsed.error.issues[0]?.message}`);
          ws.plan = parsed.data;
          return { ok: true, items: parsed.data, version: calls.length };
        }
        case "pin": {
          const text = String(input.text ?? "").trim();
          if (text === "") return fail("Give the text to pin.");
          ws.pins.push(text);
          return { ok: true, pinned: text };
        }
        default:
          return fail(`No tool ${toolName}.`);
      }
    },
  };
  // The definitions come from the real factory; its context is never used by these executes.
  const real = createBuiltinTools({
    userId: "u",
    threadId: "t",
    sessionId: "s",
    runId: null,
    isGranted: async () => false,
  });
  ws.tools = Object.fromEntries(
    Object.entries(real).map(([name, tool]) => [
      name,
      {
        ...tool,
        ...(name === "delete_file" ? { needsApproval: deleteNeedsApproval } : {}),
        execute: async (input: Record<string, unknown>) => ws.execute(name, input),
      },
    ]),
  ) as ToolSet;
  return ws;
}

export type PromptMessage = LanguageModelV3Prompt[number];

/** The two messages one tool step adds to a prompt: the call and its result. */
export function toolStepMessages(
  toolCallId: string,
  toolName: string,
  input: unknown,
  output: LanguageModelV3ToolResultOutput,
): PromptMessage[] {
  return [
    { role: "assistant", content: [{ type: "tool-call", toolCallId, toolName, input }] },
    { role: "tool", content: [{ type: "tool-result", toolCallId, toolName, output }] },
  ];
}
