// Drives the offline model one step at a time, as a run loop does: each tool call it makes is
// executed against an in-memory workspace and fed back into the prompt with its result.
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import type { PlanItem } from "@/core/plan-items";
import type { ToolDefinition } from "@/lib/ai/token-count";
import { createOfflineModel } from "@/lib/demo-model/model";
import {
  createMemoryWorkspace,
  type MemoryWorkspace,
  type PromptMessage,
  toolStepMessages,
} from "./memory-workspace";

export const SYSTEM = "You are Baton, a helpful assistant for long-running work.";
export const CONTINUE = "Continue the task from the carried-over context.";
export const SIX_TASKS = [
  "research the market",
  "draft the outline",
  "write the intro",
  "collect examples",
  "review the draft",
  "publish the post",
];

export const user = (text: string): PromptMessage => ({
  role: "user",
  content: [{ type: "text", text }],
});
export const system = (...blocks: string[]): PromptMessage => ({
  role: "system",
  content: [SYSTEM, ...blocks].filter(Boolean).join("\n\n"),
});
export const planItems = (
  tasks: string[],
  status: (i: number) => PlanItem["status"] = () => "pending",
): PlanItem[] => tasks.map((task, i) => ({ id: `p${i + 1}`, task, status: status(i) }));

export type Step =
  | { kind: "call"; id: string; toolName: string; input: Record<string, unknown> }
  | { kind: "text"; text: string };

export const calls = (steps: Step[]) => steps.flatMap((s) => (s.kind === "call" ? [s] : []));
/** `p1:done p2:in_progress …` for an update_plan input. */
export const statusOf = (input: Record<string, unknown>) =>
  ((input.items ?? []) as PlanItem[]).map((i) => `${i.id}:${i.status}`).join(" ");

export function json(value: unknown): LanguageModelV3ToolResultOutput {
  return { type: "json", value: value as never };
}

export interface OfflineDriver {
  ws: MemoryWorkspace;
  definitions: ToolDefinition[];
  /** One model call with the workspace's tool definitions. */
  next(prompt: LanguageModelV3Prompt, extra?: Partial<LanguageModelV3CallOptions>): Promise<Step>;
  /** Appends a call and its result (the workspace's, unless `output` is given) to the prompt. */
  apply(prompt: LanguageModelV3Prompt, step: Step, output?: LanguageModelV3ToolResultOutput): void;
  /** Steps until the model answers in text. */
  drive(prompt: LanguageModelV3Prompt, limit?: number): Promise<{ steps: Step[]; text: string }>;
}

/**
 * `extraDefinitions`: tools offered besides the workspace's (their calls have no execute here:
 * a test gives their results to `apply`).
 */
export async function createOfflineDriver(
  ws = createMemoryWorkspace(),
  { extraDefinitions = [] }: { extraDefinitions?: ToolDefinition[] } = {},
): Promise<OfflineDriver> {
  const definitions = [...(await ws.definitions()), ...extraDefinitions];
  const driver: OfflineDriver = {
    ws,
    definitions,
    async next(prompt, extra = {}) {
      const result = await createOfflineModel().doGenerate({
        prompt,
        tools: definitions,
        ...extra,
      });
      const part = result.content[0];
      if (part?.type === "tool-call") {
        if (result.finishReason.unified !== "tool-calls") throw new Error("finish reason");
        return {
          kind: "call",
          id: part.toolCallId,
          toolName: part.toolName,
          input: JSON.parse(part.input),
        };
      }
      if (part?.type === "text") return { kind: "text", text: part.text };
      throw new Error("no content");
    },
    apply(prompt, step, output) {
      if (step.kind !== "call") throw new Error(`expected a tool call, got: ${step.text}`);
      const result = output ?? json(ws.execute(step.toolName, step.input));
      prompt.push(...toolStepMessages(step.id, step.toolName, step.input, result));
    },
    async drive(prompt, limit = 40) {
      const steps: Step[] = [];
      for (let i = 0; i < limit; i++) {
        const step = await driver.next(prompt);
        steps.push(step);
        if (step.kind === "text") return { steps, text: step.text };
        driver.apply(prompt, step);
      }
      throw new Error("no text reply within the step limit");
    },
  };
  return driver;
}
