// `baton/local`: the offline demo model, a LanguageModelV3 with no weights and no network whose
// output is a pure function of its prompt. Knowledge and texts: ./offline-knowledge.
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
  SharedV3Warning,
} from "@ai-sdk/provider";
import { serverEnv } from "@/lib/env";
import {
  buildArtifact,
  OFFLINE_COMPACT_MARKER,
  readPrompt,
  renderReply,
  renderSummary,
  wantsCompaction,
} from "./offline-knowledge";
import { OFFLINE_MODEL_ID } from "./registry";
import { estimatePromptTokens, estimateTokens } from "./tokens";

export { OFFLINE_COMPACT_MARKER };

export const OFFLINE_MODEL_NOTICE =
  "You are chatting with Baton's offline demo model: it runs without weights or network and " +
  "only understands “remember …”, “decide …”, “todo …”, “done …” and “what do you know?”. " +
  "To connect a real model, set OPENAI_API_KEY, ANTHROPIC_API_KEY, or " +
  "OPENAI_COMPATIBLE_BASE_URL with OPENAI_COMPATIBLE_MODELS, and restart the server.";

export const DEFAULT_LOCAL_DELAY_MS = 15;
const TEXT_ID = "text-0";
const STOP = { unified: "stop", raw: "stop" } as const;

type Answer = { kind: "json" | "summary" | "reply"; text: string };

function composeAnswer({ prompt, responseFormat }: LanguageModelV3CallOptions): Answer {
  // generateText({output: Output.object(...)}), generateObject and streamObject all arrive as
  // responseFormat {type: "json", schema}; the only object this model knows is the handoff.
  if (responseFormat?.type === "json") {
    const { knowledge } = readPrompt(prompt, { structured: true });
    return { kind: "json", text: JSON.stringify(buildArtifact(knowledge)) };
  }
  const reading = readPrompt(prompt);
  if (wantsCompaction(prompt)) return { kind: "summary", text: renderSummary(reading.knowledge) };
  return { kind: "reply", text: renderReply(reading) };
}

function usageOf(options: LanguageModelV3CallOptions, text: string): LanguageModelV3Usage {
  const input = estimatePromptTokens(options.prompt, OFFLINE_MODEL_ID);
  const output = estimateTokens(text, OFFLINE_MODEL_ID);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function warningsOf(options: LanguageModelV3CallOptions): SharedV3Warning[] {
  return options.tools?.length
    ? [
        {
          type: "unsupported",
          feature: "tools",
          details: "The offline demo model never calls tools.",
        },
      ]
    : [];
}

/** Read per call, not at import, so tests and e2e can change them between calls. */
function wordDelayMs(): number {
  return serverEnv().BATON_LOCAL_DELAY_MS ?? DEFAULT_LOCAL_DELAY_MS;
}

function handoffDelayMs(): number {
  return serverEnv().BATON_LOCAL_HANDOFF_DELAY_MS ?? 0;
}

/*
 * What fetch-based providers reject with when their signal fires, so callers need one check:
 * streamText turns an AbortError on an aborted signal into its `abort` part. A TimeoutError
 * (AbortSignal.timeout) passes through as is; any other reason becomes an AbortError.
 */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && (reason.name === "AbortError" || reason.name === "TimeoutError")) {
    return reason;
  }
  return new DOMException("This operation was aborted", "AbortError");
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      if (signal) reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** One word plus the whitespace after it per delta; leading whitespace joins the first word. */
export function splitWords(text: string): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const lead = text.length - text.trimStart().length;
  if (words.length === 0) return text ? [text] : [];
  if (lead > 0) words[0] = text.slice(0, lead) + words[0];
  return words;
}

interface TimedPart {
  delayMs: number;
  part: LanguageModelV3StreamPart;
}

function planStream(options: LanguageModelV3CallOptions, answer: Answer): TimedPart[] {
  const usage = usageOf(options, answer.text);
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
    { delayMs: 0, part: { type: "stream-start", warnings: warningsOf(options) } },
    { delayMs: 0, part: { type: "response-metadata", modelId: "local" } },
    { delayMs: 0, part: { type: "text-start", id: TEXT_ID } },
    ...deltas,
    { delayMs: 0, part: { type: "text-end", id: TEXT_ID } },
    { delayMs: 0, part: { type: "finish", usage, finishReason: STOP } },
  ];
}

/** A fresh stream per call: a ReadableStream can be read once, and retries call again. */
function timedStream(
  plan: TimedPart[],
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV3StreamPart> {
  let next = 0;
  let settled = false;
  let onAbort: (() => void) | undefined;
  const detach = () => {
    settled = true;
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  };
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      if (!signal) return;
      // Error the stream the moment the signal fires, even while nobody is pulling.
      onAbort = () => {
        if (settled) return;
        detach();
        controller.error(abortError(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
    },
    async pull(controller) {
      const step = plan[next++];
      if (step === undefined) {
        detach();
        controller.close();
        return;
      }
      try {
        await sleep(step.delayMs, signal);
      } catch {
        return; // onAbort has already errored the stream
      }
      if (settled) return;
      controller.enqueue(step.part);
      if (next === plan.length) {
        detach();
        controller.close();
      }
    },
    cancel() {
      detach();
    },
  });
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
    if (answer.kind === "json") {
      await sleep(handoffDelayMs(), signal);
    }
    return {
      content: [{ type: "text", text: answer.text }],
      finishReason: STOP,
      usage: usageOf(options, answer.text),
      warnings: warningsOf(options),
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
