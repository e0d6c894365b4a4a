// `baton/local`: the offline demo model, a LanguageModelV3 with no weights and no network whose
// output is a pure function of its prompt. It answers in text (./knowledge,
// ./replies) or, for a tool command, takes the next tool step (./agent); the
// stream plumbing is in ./stream.
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { serverEnv } from "@/core/env";
import { OFFLINE_MODEL_ID } from "@/lib/ai/registry";
import { estimatePromptTokens, estimateTokens, toolDefinitionTokens } from "@/lib/ai/token-count";
import { salientTitle } from "@/lib/chat/salient-title";
import { decideToolStep } from "./agent";
import { continuationOf, remainderAfter } from "./continue";
import { OFFLINE_COMPACT_MARKER, readPrompt, requestStart, wantsCompaction } from "./knowledge";
import { buildArtifact, readWorkFacts, renderReply, renderSummary } from "./replies";
import { abortError, sleep, splitWords, type TimedPart, timedStream } from "./stream";

export { OFFLINE_COMPACT_MARKER, splitWords };

/** In a system message, asks for a thread title: the first user message's salient words. */
export const OFFLINE_TITLE_MARKER = "[[baton:title]]";

function titleAnswer(prompt: LanguageModelV3Prompt): string | null {
  const asks = prompt.some(
    (m) =>
      m.role === "system" &&
      typeof m.content === "string" &&
      m.content.includes(OFFLINE_TITLE_MARKER),
  );
  if (!asks) return null;
  const first = prompt.find((m) => m.role === "user");
  const text =
    first?.role === "user"
      ? first.content.map((p) => (p.type === "text" ? p.text : "")).join(" ")
      : "";
  return salientTitle(text);
}

export const OFFLINE_MODEL_NOTICE =
  "You are chatting with Baton's offline demo model: it runs without weights or network and " +
  "only understands “remember …” (pinned), “note …”, “decide …”, “todo …”, “done …” and “what do you know?”, " +
  "and with the workspace tools “write <path>: <text>”, “read <path>”, “delete <path>”, " +
  "“list files”, “plan: a; b; c” and “work through the plan”, and with other agents " +
  "“hand off to <agent>: <task>” and “list agents”. " +
  "To connect a real model, set OPENAI_API_KEY, ANTHROPIC_API_KEY, or " +
  "OPENAI_COMPATIBLE_BASE_URL with OPENAI_COMPATIBLE_MODELS, and restart the server.";

const DEFAULT_LOCAL_DELAY_MS = 15;
/** Words of a tool call's JSON input per tool-input-delta part. */
const TOOL_INPUT_WORDS_PER_DELTA = 8;
const TEXT_ID = "text-0";
const STOP: LanguageModelV3FinishReason = { unified: "stop", raw: "stop" };
const TOOL_CALLS: LanguageModelV3FinishReason = { unified: "tool-calls", raw: "tool_calls" };

type Answer =
  | { kind: "json" | "summary" | "reply"; text: string }
  | { kind: "tool-call"; toolCallId: string; toolName: string; input: string };

/*
 * A tool call id must be unique in the thread (spilled results are stored under it) yet a pure
 * function of the prompt: a 53-bit hash of the prompt (cyrb53), which differs from step to step
 * because every step's prompt holds the calls before it.
 */
function promptHash(prompt: LanguageModelV3Prompt): string {
  const text = JSON.stringify(prompt);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function composeAnswer(options: LanguageModelV3CallOptions): Answer {
  const { prompt, responseFormat } = options;
  // generateText({output: Output.object(...)}), generateObject and streamObject all arrive as
  // responseFormat {type: "json", schema}; the only object this model knows is the handoff.
  if (responseFormat?.type === "json") {
    const { knowledge } = readPrompt(prompt, { structured: true });
    const start = requestStart(prompt);
    const requestEnd = prompt.slice(0, start).findLastIndex((m) => m.role === "user");
    const work = readWorkFacts(prompt, requestEnd, knowledge.carried);
    return { kind: "json", text: JSON.stringify(buildArtifact(knowledge, work)) };
  }
  const title = titleAnswer(prompt);
  if (title !== null) return { kind: "reply", text: title };
  const cut = continuationOf(prompt);
  if (cut) {
    const full = composeAnswer({ ...options, prompt: cut.prompt });
    if (full.kind !== "reply") return full;
    return { kind: "reply", text: remainderAfter(full.text, cut.prefix) || "." };
  }
  const reading = readPrompt(prompt);
  if (wantsCompaction(prompt)) return { kind: "summary", text: renderSummary(reading.knowledge) };
  const step = decideToolStep(options);
  if (step?.kind === "tool-call") {
    return {
      kind: "tool-call",
      toolCallId: `call_local_${promptHash(prompt)}`,
      toolName: step.toolName,
      input: JSON.stringify(step.input),
    };
  }
  if (step?.kind === "text") return { kind: "reply", text: step.text };
  return { kind: "reply", text: renderReply(reading) };
}

/** What the answer costs as output: its text, or a tool call's name and JSON input. */
function outputText(answer: Answer): string {
  return answer.kind === "tool-call" ? `${answer.toolName} ${answer.input}` : answer.text;
}

/** Input as providers count it: the prompt plus the tool definitions sent with it. */
function usageOf(options: LanguageModelV3CallOptions, answer: Answer): LanguageModelV3Usage {
  const input =
    estimatePromptTokens(options.prompt, OFFLINE_MODEL_ID) +
    toolDefinitionTokens(options.tools, OFFLINE_MODEL_ID);
  const output = estimateTokens(outputText(answer), OFFLINE_MODEL_ID);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: answer.kind === "tool-call" ? 0 : output, reasoning: 0 },
  };
}

/** Read per call, not at import, so tests and e2e can change them between calls. */
function wordDelayMs(): number {
  return serverEnv().BATON_LOCAL_DELAY_MS ?? DEFAULT_LOCAL_DELAY_MS;
}

function handoffDelayMs(): number {
  return serverEnv().BATON_LOCAL_HANDOFF_DELAY_MS ?? 0;
}

function chunks(words: string[], size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(""));
  return out;
}

/** The parts of one answer, as a provider streams them: text word by word, or one tool call. */
function planStream(options: LanguageModelV3CallOptions, answer: Answer): TimedPart[] {
  const usage = usageOf(options, answer);
  const now = (part: LanguageModelV3StreamPart): TimedPart => ({ delayMs: 0, part });
  const start = [
    now({ type: "stream-start", warnings: [] }),
    now({ type: "response-metadata", modelId: "local" }),
  ];
  if (answer.kind === "tool-call") {
    const id = answer.toolCallId;
    const deltas = chunks(splitWords(answer.input), TOOL_INPUT_WORDS_PER_DELTA).map((delta) => ({
      delayMs: wordDelayMs(),
      part: { type: "tool-input-delta", id, delta } as const,
    }));
    return [
      ...start,
      now({ type: "tool-input-start", id, toolName: answer.toolName }),
      ...deltas,
      now({ type: "tool-input-end", id }),
      now({ type: "tool-call", toolCallId: id, toolName: answer.toolName, input: answer.input }),
      now({ type: "finish", usage, finishReason: TOOL_CALLS }),
    ];
  }
  const deltas: TimedPart[] =
    answer.kind === "json"
      ? [
          {
            delayMs: handoffDelayMs(),
            part: { type: "text-delta", id: TEXT_ID, delta: answer.text },
          },
        ]
      : splitWords(answer.text).map((delta) => ({
          delayMs: wordDelayMs(),
          part: { type: "text-delta", id: TEXT_ID, delta },
        }));
  return [
    ...start,
    now({ type: "text-start", id: TEXT_ID }),
    ...deltas,
    now({ type: "text-end", id: TEXT_ID }),
    now({ type: "finish", usage, finishReason: STOP }),
  ];
}

function contentOf(answer: Answer): LanguageModelV3Content[] {
  return answer.kind === "tool-call"
    ? [
        {
          type: "tool-call",
          toolCallId: answer.toolCallId,
          toolName: answer.toolName,
          input: answer.input,
        },
      ]
    : [{ type: "text", text: answer.text }];
}

class OfflineLanguageModel implements LanguageModelV3 {
  readonly specificationVersion = "v3";
  readonly provider = "baton";
  readonly modelId = "local";
  readonly supportedUrls: Record<string, RegExp[]> = {};

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const signal = options.abortSignal;
    if (signal?.aborted) throw abortError(signal);
    const answer = composeAnswer(options);
    // The background writes (a handoff, a title) take the handoff delay: tests act meanwhile.
    if (answer.kind === "json" || titleAnswer(options.prompt) !== null) {
      await sleep(handoffDelayMs(), signal);
    }
    return {
      content: contentOf(answer),
      finishReason: answer.kind === "tool-call" ? TOOL_CALLS : STOP,
      usage: usageOf(options, answer),
      warnings: [],
      response: { modelId: this.modelId },
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const signal = options.abortSignal;
    if (signal?.aborted) throw abortError(signal);
    const plan = planStream(options, composeAnswer(options));
    return { stream: timedStream(plan, signal) };
  }
}

export function createOfflineModel(): LanguageModelV3 {
  return new OfflineLanguageModel();
}
