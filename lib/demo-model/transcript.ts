// How the offline model reads the tool side of its prompt: which user message is the request,
// the tool calls made since with their results, and the plan as the prompt shows it (the plan
// block of the system prompt, then every later update_plan call). Pure functions of the prompt.
import type { LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import type { PlanItem, PlanItemStatus } from "@/core/plan-items";
import { parsePlanBlock } from "@/lib/agents/tools/prompt-blocks";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { CARRIED_OVER_CLOSE_TAG, CARRIED_OVER_OPEN_TAG } from "@/lib/handoff/brief";

export type { PlanItem };

type PlanStatus = PlanItemStatus;

/** What the run loop sends after a mid-run reset, after the moved user message. */
export const CONTINUE_INSTRUCTION = /\bcontinue the task from the carried-over context\b\.?/gi;

type Message = LanguageModelV3Prompt[number];

// Tag-like text inside a block is escaped when rendered, so the lazy match ends at its own end.
const BRIEF_BLOCK = new RegExp(
  `${CARRIED_OVER_OPEN_TAG}(?:\\s[^>]*)?>[\\s\\S]*?${CARRIED_OVER_CLOSE_TAG}`,
  "g",
);

export function messageText(message: Message): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => (part.type === "text" ? part.text : ""))
    .filter(Boolean)
    .join("\n");
}

/** A user message's own words: without the continuation instruction and any carried-over block. */
export function ownText(message: Message): string {
  return messageText(message).replace(BRIEF_BLOCK, "").replace(CONTINUE_INSTRUCTION, "").trim();
}

export interface ToolRequest {
  /** Index of the user message the current run answers. */
  index: number;
  /** Its text, without the continuation instruction and any carried-over block. */
  text: string;
  /** The prompt is a continuation after a reset (the instruction follows the request). */
  continued: boolean;
}

/**
 * The last user message that says something; a message that is only the continuation
 * instruction points back to the user message before it (the one moved into this session).
 */
export function findRequest(prompt: LanguageModelV3Prompt): ToolRequest | null {
  // The instruction is a user message after the moved one; a run loop may also put it in the
  // system prompt.
  let continued = prompt.some(
    (m) => m.role === "system" && m.content.replace(CONTINUE_INSTRUCTION, "") !== m.content,
  );
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message?.role !== "user") continue;
    const raw = messageText(message);
    const own = raw.replace(BRIEF_BLOCK, "");
    const text = own.replace(CONTINUE_INSTRUCTION, "").trim();
    if (text !== own.trim()) continued = true;
    if (text !== "") return { index: i, text, continued };
  }
  return null;
}

type ResultStatus = "ok" | "error" | "denied";

export interface ReadResult {
  status: ResultStatus;
  /** The error message or denial reason; for ok results, the text of a text output. */
  message: string;
  /** A json output's value (undefined for text). */
  value: unknown;
}

function errorMessageOf(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return null;
  const record = value as Record<string, unknown>;
  if (record.ok === false || typeof record.error === "string") {
    return typeof record.error === "string" ? record.error : JSON.stringify(value);
  }
  return null;
}

/** A tool result as the model reads it: tools report mistakes as `{ ok: false, error }`. */
function readResult(output: LanguageModelV3ToolResultOutput): ReadResult {
  switch (output.type) {
    case "execution-denied":
      return { status: "denied", message: output.reason ?? "", value: undefined };
    case "error-text":
      return { status: "error", message: output.value, value: undefined };
    case "error-json":
      return {
        status: "error",
        message: errorMessageOf(output.value) ?? JSON.stringify(output.value),
        value: output.value,
      };
    case "json": {
      const error = errorMessageOf(output.value);
      return error === null
        ? { status: "ok", message: "", value: output.value }
        : { status: "error", message: error, value: output.value };
    }
    case "text":
      return { status: "ok", message: output.value, value: undefined };
    case "content":
      return {
        status: "ok",
        message: output.value.map((item) => (item.type === "text" ? item.text : "")).join("\n"),
        value: undefined,
      };
  }
}

export interface ToolStep {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Index of the assistant message that made the call. */
  messageIndex: number;
  /** Undefined while the call has no result in the prompt (e.g. awaiting approval). */
  result?: ReadResult;
}

/** Every tool call in the prompt from `from` on, oldest first, each with its result. */
export function toolSteps(prompt: LanguageModelV3Prompt, from = 0): ToolStep[] {
  const steps: ToolStep[] = [];
  const byId = new Map<string, ToolStep>();
  for (let i = from; i < prompt.length; i++) {
    const message = prompt[i];
    if (message === undefined || typeof message.content === "string") continue;
    if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type !== "tool-call") continue;
        const step = {
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
          messageIndex: i,
        };
        steps.push(step);
        byId.set(part.toolCallId, step);
      }
    }
    if (message.role === "tool" || message.role === "assistant") {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        const step = byId.get(part.toolCallId);
        if (step) step.result = readResult(part.output);
      }
    }
  }
  return steps;
}

export function inputField(input: unknown, key: string): unknown {
  return typeof input === "object" && input !== null
    ? (input as Record<string, unknown>)[key]
    : undefined;
}

const PLAN_ID = /^p[1-9]\d*$/;

/** Plan items from an update_plan input or result (`{items: [...]}`), or null when malformed. */
function planItemsOf(value: unknown): PlanItem[] | null {
  const items = inputField(value, "items");
  if (!Array.isArray(items)) return null;
  const out: PlanItem[] = [];
  for (const item of items) {
    const id = inputField(item, "id");
    const task = inputField(item, "task");
    const status = inputField(item, "status");
    if (typeof id !== "string" || typeof task !== "string") return null;
    if (status !== "pending" && status !== "in_progress" && status !== "done") return null;
    out.push({ id, task, status });
  }
  return out;
}

/** The plan a successful update_plan call left: the tool's echo, else what was sent. */
export function planAfter(step: ToolStep): PlanItem[] | null {
  if (step.toolName !== "update_plan" || step.result?.status !== "ok") return null;
  return planItemsOf(step.result.value) ?? planItemsOf(step.input);
}

/** The plan block of the system prompt, or null when the prompt has none. */
function planBlockOf(prompt: LanguageModelV3Prompt): PlanItem[] | null {
  for (const message of prompt) {
    if (message.role !== "system") continue;
    // The block's format and its reader belong to the run loop's prompt (prompt-blocks.ts).
    if (message.content.includes("<plan>")) return parsePlanBlock(message.content);
  }
  return null;
}

const WORKSPACE_BLOCK = /<workspace>\n\d+ files?: ([^\n]*)\n<\/workspace>/;

/**
 * The paths the system prompt's workspace block lists (`N files: a, b, c`, at most the first
 * fifty), or an empty list when the prompt has none.
 */
export function workspaceBlockPaths(prompt: LanguageModelV3Prompt): string[] {
  for (const message of prompt) {
    if (message.role !== "system") continue;
    const m = WORKSPACE_BLOCK.exec(message.content);
    if (m?.[1] !== undefined) return m[1].replace(/, … and \d+ more.*$/, "").split(", ");
  }
  return [];
}

const ID_PREFIX = /^(p[1-9]\d*):\s*/;

/** Plan items a carried-over handoff lists (pending, in progress, done), for prompts without a block. */
function planFromBrief(brief: HandoffArtifact): PlanItem[] {
  const items = new Map<string, PlanItem>();
  const add = (text: string, status: PlanStatus) => {
    const m = ID_PREFIX.exec(text);
    if (m?.[1] && !items.has(m[1]))
      items.set(m[1], { id: m[1], task: text.slice(m[0].length), status });
  };
  for (const work of brief.completed_work) add(work, "done");
  for (const work of brief.in_progress) add(work, "in_progress");
  for (const task of brief.remaining_tasks) {
    if (PLAN_ID.test(task.id) && !items.has(task.id)) {
      items.set(task.id, { id: task.id, task: task.task, status: "pending" });
    }
  }
  return [...items.values()].sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
}

/**
 * The plan as the prompt shows it: the last successful update_plan call wins (it is newer than
 * a plan block rendered when the session or run began); else the system prompt's plan block;
 * else the plan items a carried brief lists.
 */
export function currentPlan(
  prompt: LanguageModelV3Prompt,
  brief: HandoffArtifact | null,
): PlanItem[] {
  const steps = toolSteps(prompt);
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    const plan = step ? planAfter(step) : null;
    if (plan) return plan;
  }
  return planBlockOf(prompt) ?? (brief ? planFromBrief(brief) : []);
}

/** The highest `pN` the prompt shows (plan block, update_plan calls, a carried brief), or 0. */
export function highestPlanNumber(
  prompt: LanguageModelV3Prompt,
  brief: HandoffArtifact | null,
): number {
  const ids: string[] = [];
  for (const item of planBlockOf(prompt) ?? []) ids.push(item.id);
  for (const step of toolSteps(prompt)) {
    for (const item of planAfter(step) ?? []) ids.push(item.id);
  }
  if (brief) for (const item of planFromBrief(brief)) ids.push(item.id);
  return ids.reduce((max, id) => (PLAN_ID.test(id) ? Math.max(max, Number(id.slice(1))) : max), 0);
}
