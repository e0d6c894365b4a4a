import type { StepResult, ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { OFFLINE_MODEL_ID } from "@/lib/ai/registry";
import { estimateTokens } from "@/lib/ai/token-count";
import { estimateStepTokens, StepMeter } from "./run-context";

type Step = Pick<StepResult<ToolSet>, "stepNumber" | "usage" | "content">;

const before = {
  inputTokens: 1_000,
  contextWindow: 10_000,
  utilization: 0.1,
  threshold: 0.8,
  strategy: "reset" as const,
};

function writeStep(stepNumber: number, content: string, inputTokens?: number): Step {
  const input = { path: `n${stepNumber}.md`, content };
  return {
    stepNumber,
    usage: { inputTokens } as Step["usage"],
    content: [
      { type: "tool-call", toolCallId: `c${stepNumber}`, toolName: "write_file", input },
      {
        type: "tool-result",
        toolCallId: `c${stepNumber}`,
        toolName: "write_file",
        input,
        output: { ok: true, path: input.path },
      },
    ] as Step["content"],
  };
}

describe("estimateStepTokens", () => {
  it("counts the call's input and the result, so a bigger write adds more", () => {
    const small = estimateStepTokens(writeStep(0, "short").content, OFFLINE_MODEL_ID);
    const long = "many words of content ".repeat(100);
    const big = estimateStepTokens(writeStep(0, long).content, OFFLINE_MODEL_ID);
    expect(big - small).toBeGreaterThanOrEqual(estimateTokens(long, OFFLINE_MODEL_ID) - 5);
  });
});

describe("StepMeter", () => {
  it("reads the step's reported input plus what the step added", () => {
    const meter = new StepMeter(before, OFFLINE_MODEL_ID);
    const step = writeStep(0, "hello", 2_000);
    const reading = meter.after(step);
    expect(reading.inputTokens).toBe(2_000 + estimateStepTokens(step.content, OFFLINE_MODEL_ID));
    expect(reading.utilization).toBeCloseTo(reading.inputTokens / 10_000);
    expect(meter.after(step)).toBe(reading);
    expect(meter.current).toBe(reading);
  });

  it("builds on the previous reading when a step reports no usage, counting nothing twice", () => {
    const meter = new StepMeter(before, OFFLINE_MODEL_ID);
    const first = meter.after(writeStep(0, "a"));
    const second = meter.after(writeStep(1, "b"));
    const added = estimateStepTokens(writeStep(1, "b").content, OFFLINE_MODEL_ID);
    expect(first.inputTokens).toBeGreaterThan(before.inputTokens);
    expect(second.inputTokens).toBe(first.inputTokens + added);
    // A later report replaces the running estimate rather than adding to it.
    const third = meter.after(writeStep(2, "c", 1_500));
    expect(third.inputTokens).toBe(1_500 + added);
  });

  it("scales what a step added by the ratio the leg's reported calls taught", () => {
    const long = "many words of content ".repeat(100);
    const step = writeStep(0, long, 2_000);
    const added = estimateStepTokens(step.content, OFFLINE_MODEL_ID);
    const meter = new StepMeter(before, OFFLINE_MODEL_ID);
    meter.observe({ reported: 1_300, estimated: 1_000 });
    const reading = meter.after(step);
    expect(meter.ratio).toBeCloseTo(1.3, 10);
    expect(reading.calibration).toBeCloseTo(1.3, 10);
    expect(reading.inputTokens).toBe(2_000 + Math.ceil(added * 1.3));
  });

  it("uses the session's prior until a call reports, then the session's own ratio", () => {
    const step = writeStep(0, "many words of content ".repeat(50));
    const added = estimateStepTokens(step.content, OFFLINE_MODEL_ID);
    const withPrior = new StepMeter({ ...before, calibration: 2 }, OFFLINE_MODEL_ID);
    expect(withPrior.ratio).toBeNull();
    expect(withPrior.after(step).inputTokens).toBe(before.inputTokens + added * 2);
    // The session's own ratio learns from the call, not from the family's prior.
    const own = new StepMeter({ ...before, calibration: 2 }, OFFLINE_MODEL_ID, 1.0);
    own.observe({ reported: 1_000, estimated: 1_000 });
    expect(own.ratio).toBe(1);
  });
});
