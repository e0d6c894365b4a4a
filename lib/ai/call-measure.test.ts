import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { simulateReadableStream, streamText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { CallSample } from "@/lib/context/calibration";
import { createOfflineModel } from "@/lib/demo-model/model";
import { measuredModel } from "./call-measure";
import { OFFLINE_MODEL_ID } from "./registry";
import { estimatePromptTokens } from "./token-count";

const MODEL = "anthropic:claude-sonnet-4-5";
const SYSTEM = "You are a careful assistant who keeps notes of everything the user asks.";
const USER = "Summarize the plan for the migration of the billing tables, step by step.";

function usage(input: number | undefined) {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 3, text: 3, reasoning: 0 },
  };
}

function streamingModel(chunks: LanguageModelV3StreamPart[]) {
  return new MockLanguageModelV3({
    doStream: async () => ({ stream: simulateReadableStream({ chunks }) }),
  });
}

const text: LanguageModelV3StreamPart[] = [
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "Done." },
  { type: "text-end", id: "t" },
];

async function run(model: MockLanguageModelV3 | ReturnType<typeof createOfflineModel>, id = MODEL) {
  const samples: CallSample[] = [];
  const result = streamText({
    model: measuredModel(model, id, (s) => samples.push(s)),
    system: SYSTEM,
    prompt: USER,
    onError: () => {},
  });
  await result.consumeStream();
  return samples;
}

describe("measuredModel", () => {
  beforeEach(() => {
    vi.stubEnv("BATON_LOCAL_DELAY_MS", "0");
  });

  it("pairs the estimate of exactly what was sent with the reported input", async () => {
    const model = streamingModel([
      ...text,
      { type: "finish", usage: usage(130), finishReason: { unified: "stop", raw: "end_turn" } },
    ]);
    const samples = await run(model);
    const sent = model.doStreamCalls[0]?.prompt ?? [];
    expect(samples).toEqual([{ reported: 130, estimated: estimatePromptTokens(sent, MODEL) }]);
    expect(sent.some((m) => m.role === "system")).toBe(true);
  });

  it("reports nothing for a call without usage, a failed call or a stream that lost its end", async () => {
    const noUsage = streamingModel([
      ...text,
      { type: "finish", usage: usage(undefined), finishReason: { unified: "stop", raw: "stop" } },
    ]);
    const failed = streamingModel([
      { type: "error", error: new Error("overloaded") },
      { type: "finish", usage: usage(130), finishReason: { unified: "error", raw: undefined } },
    ]);
    const cut = streamingModel([
      ...text,
      { type: "finish", usage: usage(130), finishReason: { unified: "other", raw: undefined } },
    ]);
    expect(await run(noUsage)).toEqual([]);
    expect(await run(failed)).toEqual([]);
    expect(await run(cut)).toEqual([]);
  });

  it("finds the offline model's own count equal to the estimate (ratio 1)", async () => {
    const [sample] = await run(createOfflineModel(), OFFLINE_MODEL_ID);
    expect(sample).toBeDefined();
    expect(sample?.reported).toBe(sample?.estimated);
  });
});
