// Helpers for run tests: the live UI message a stream builds (as useChat would), the stored
// thread, approval answers sent back the way the browser sends them, and scripted models.
import { randomUUID } from "node:crypto";
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { readUIMessageStream, type UIMessageChunk } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { expect } from "vitest";
import { listThreadMessages } from "@/db/queries/messages";
import { OFFLINE_MODEL_ID } from "@/lib/ai/registry";
import { estimatePromptTokens, toolDefinitionTokens } from "@/lib/ai/token-count";
import type { Actor } from "@/lib/auth/server";
import { toChatMessage } from "@/lib/chat/stored-message";
import type { ChatMessage } from "@/lib/chat/types";
import { runChatTurn, type TurnDependencies } from "@/lib/runs/turn";
import { parseSse, type SsePart, waitForStoredReplies } from "./chat";

/** The one assistant message a stream builds in the browser. */
export async function liveMessage(parts: SsePart[], start?: ChatMessage): Promise<ChatMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const part of parts) controller.enqueue(part as unknown as UIMessageChunk);
      controller.close();
    },
  });
  let last: ChatMessage | undefined = start;
  for await (const message of readUIMessageStream<ChatMessage>({ message: start, stream })) {
    last = message;
  }
  if (!last) throw new Error("the stream built no message");
  return last;
}

export async function storedMessages(actor: Actor, threadId: string): Promise<ChatMessage[]> {
  const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 1000 });
  return messages.map(toChatMessage);
}

/** The stored assistant message that carries approval requests, newest first. */
export async function messageAwaitingApproval(actor: Actor, threadId: string) {
  const messages = await storedMessages(actor, threadId);
  return messages.findLast((m) =>
    m.parts.some((p) => (p as { state?: string }).state === "approval-requested"),
  );
}

/** The message with the answer applied, as the browser's addToolApprovalResponse leaves it. */
export function withApprovalAnswer(
  message: ChatMessage,
  approved: boolean,
  reason?: string,
): ChatMessage {
  return {
    ...message,
    parts: message.parts.map((part) => {
      const p = part as { state?: string; approval?: { id: string } };
      if (p.state !== "approval-requested" || !p.approval) return part;
      return {
        ...part,
        state: "approval-responded",
        approval: { id: p.approval.id, approved, ...(reason ? { reason } : {}) },
      } as ChatMessage["parts"][number];
    }),
  };
}

export function approvalIdsOf(message: ChatMessage): string[] {
  return message.parts.flatMap((part) => {
    const p = part as { state?: string; approval?: { id: string } };
    return p.approval && p.state === "approval-responded" ? [p.approval.id] : [];
  });
}

/** Sends an approval answer (the assistant message back, as the chat page does). */
export async function answerApproval(
  actor: Actor,
  threadId: string,
  message: ChatMessage,
  {
    deps = {},
    allowForSession = false,
  }: { deps?: TurnDependencies; allowForSession?: boolean } = {},
): Promise<SsePart[]> {
  const response = await runChatTurn({
    actor,
    request: {
      trigger: "submit-message",
      id: threadId,
      message: { id: message.id, role: "assistant", parts: message.parts },
      ...(allowForSession ? { allowForSession: approvalIdsOf(message) } : {}),
    },
    signal: new AbortController().signal,
    deps,
  });
  const parts = parseSse(await response.text());
  await waitForStoredReplies(actor, threadId);
  return parts;
}

export function toolChunks(parts: SsePart[], toolName?: string) {
  return parts.filter(
    (p) =>
      p.type === "tool-input-available" &&
      (toolName === undefined || (p as { toolName?: string }).toolName === toolName),
  ) as unknown as { toolCallId: string; toolName: string; input: Record<string, unknown> }[];
}

/** The outputs of the calls of `toolName`, in call order. */
export function toolOutputs(parts: SsePart[], toolName: string): unknown[] {
  return toolChunks(parts, toolName).map(
    (call) =>
      (
        parts.find(
          (p) =>
            p.type === "tool-output-available" &&
            (p as { toolCallId?: string }).toolCallId === call.toolCallId,
        ) as { output?: unknown } | undefined
      )?.output,
  );
}

const usage = (input: number, output: number): LanguageModelV3Usage => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

/** What a provider would report as the input of this call: the prompt and the tools. */
export function reportedInput(options: LanguageModelV3CallOptions): number {
  return (
    estimatePromptTokens(options.prompt, OFFLINE_MODEL_ID) +
    toolDefinitionTokens(options.tools, OFFLINE_MODEL_ID)
  );
}

export interface ScriptedCall {
  toolName: string;
  input: Record<string, unknown>;
}

/** One step: a tool call, several tool calls in one step, or a text answer. */
export type ScriptedStep = ScriptedCall | { calls: ScriptedCall[] } | { text: string };

/**
 * A scripted model: each streamed call takes its step from `next(prompt)`; a handoff request
 * (structured output) is answered with a minimal valid artifact. Prompts are recorded.
 */
export function scriptedModel(
  next: (prompt: LanguageModelV3Prompt, call: number) => ScriptedStep,
  artifact: Record<string, unknown> = {
    goal: "scripted",
    state_summary: "The scripted model was working.",
  },
) {
  const prompts: LanguageModelV3Prompt[] = [];
  /** Every streamed call's options (its tools included). */
  const options: LanguageModelV3CallOptions[] = [];
  let calls = 0;
  const model = new MockLanguageModelV3({
    provider: "baton",
    modelId: "local",
    doGenerate: async (options) => {
      return {
        content: [{ type: "text", text: JSON.stringify(artifact) }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: usage(reportedInput(options), 20),
        warnings: [],
      };
    },
    doStream: async (call) => {
      prompts.push(call.prompt);
      options.push(call);
      const step = next(call.prompt, calls++);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      if ("text" in step) {
        parts.push(
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: step.text },
          { type: "text-end", id: "t" },
          {
            type: "finish",
            finishReason: { unified: "stop", raw: "stop" },
            usage: usage(reportedInput(call), 10),
          },
        );
      } else {
        const stepCalls = "calls" in step ? step.calls : [step];
        parts.push(
          ...stepCalls.map(
            (c): LanguageModelV3StreamPart => ({
              type: "tool-call",
              toolCallId: `call-${randomUUID()}`,
              toolName: c.toolName,
              input: JSON.stringify(c.input),
            }),
          ),
          {
            type: "finish",
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage: usage(reportedInput(call), 10),
          },
        );
      }
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
  return { model, prompts, options };
}

/** Every tool call in a prompt has its result before the next user or assistant turn. */
export function expectEveryCallAnswered(prompt: LanguageModelV3Prompt) {
  const open = new Set<string>();
  for (const message of prompt) {
    if (message.role === "assistant") {
      expect([...open]).toEqual([]);
      for (const part of message.content) if (part.type === "tool-call") open.add(part.toolCallId);
    } else if (message.role === "tool") {
      for (const part of message.content)
        if (part.type === "tool-result") open.delete(part.toolCallId);
    } else if (message.role === "user") {
      expect([...open]).toEqual([]);
    }
  }
  expect([...open]).toEqual([]);
}
