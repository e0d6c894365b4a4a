import { describe, expect, it } from "vitest";
import {
  calibrated,
  clampRatio,
  FamilyPriors,
  MIN_SAMPLE_TOKENS,
  modelFamily,
  nextRatio,
  RATIO_MAX,
  RATIO_MIN,
  sampleRatio,
} from "./calibration";

describe("sampleRatio", () => {
  it("is reported ÷ estimated for a call that reported its input", () => {
    expect(sampleRatio({ reported: 1300, estimated: 1000 })).toBeCloseTo(1.3, 10);
  });

  it("teaches nothing without usage or with a prompt too small to say", () => {
    expect(sampleRatio({ reported: 0, estimated: 1000 })).toBeNull();
    expect(sampleRatio({ reported: Number.NaN, estimated: 1000 })).toBeNull();
    expect(sampleRatio({ reported: 500, estimated: MIN_SAMPLE_TOKENS - 1 })).toBeNull();
  });

  it("clamps what cannot be a tokenizer difference", () => {
    expect(sampleRatio({ reported: 100_000, estimated: 1000 })).toBe(RATIO_MAX);
    expect(sampleRatio({ reported: 100, estimated: 1000 })).toBe(RATIO_MIN);
  });
});

describe("nextRatio", () => {
  it("takes the first call's ratio as it is", () => {
    expect(nextRatio(null, { reported: 1200, estimated: 1000 })).toBeCloseTo(1.2, 10);
  });

  it("moves a learned ratio part of the way towards each new call", () => {
    const after = nextRatio(1.0, { reported: 2000, estimated: 1000 }) ?? 0;
    expect(after).toBeGreaterThan(1.0);
    expect(after).toBeLessThan(2.0);
  });

  it("converges on a provider's steady ratio from a wrong start", () => {
    let ratio: number | null = 2.5;
    for (let i = 0; i < 20; i++) ratio = nextRatio(ratio, { reported: 1300, estimated: 1000 });
    expect(ratio).toBeCloseTo(1.3, 2);
  });

  it("is unchanged by a call that teaches nothing", () => {
    expect(nextRatio(1.4, { reported: 0, estimated: 1000 })).toBe(1.4);
    expect(nextRatio(null, { reported: 0, estimated: 1000 })).toBeNull();
  });
});

describe("calibrated", () => {
  it("scales an estimate, rounding up", () => {
    expect(calibrated(1000, 1.3)).toBe(1300);
    expect(calibrated(3, 1.3)).toBe(4);
  });

  it("leaves the estimate alone without a ratio", () => {
    expect(calibrated(1000, null)).toBe(1000);
    expect(calibrated(1000, undefined)).toBe(1000);
  });

  it("never applies a ratio outside the clamp", () => {
    expect(calibrated(1000, 10)).toBe(1000 * RATIO_MAX);
    expect(clampRatio(0.1)).toBe(RATIO_MIN);
  });
});

describe("modelFamily", () => {
  it.each([
    ["anthropic:claude-sonnet-4-5", "anthropic:claude"],
    ["anthropic:claude-opus-4-6", "anthropic:claude"],
    ["openai:gpt-4.1-mini", "openai:gpt-4.1"],
    ["openai:gpt-4.1", "openai:gpt-4.1"],
    ["openai:gpt-4o-mini", "openai:gpt-4o"],
    ["openai:o3-mini", "openai:o3"],
    ["compatible:qwen2.5-coder:7b", "compatible:qwen2.5"],
    ["compatible:llama3.1", "compatible:llama3.1"],
    ["gpt-5", "gpt-5"],
    ["baton/local", "baton/local"],
  ])("%s → %s", (modelId, family) => {
    expect(modelFamily(modelId)).toBe(family);
  });

  it("tells providers apart for the same model name", () => {
    expect(modelFamily("openai:gpt-4.1")).not.toBe(modelFamily("compatible:gpt-4.1"));
  });
});

describe("FamilyPriors", () => {
  it("is seeded once from stored ratios, then moved by calls", () => {
    const priors = new FamilyPriors();
    expect(priors.get("anthropic:claude")).toBeUndefined();
    priors.seed("anthropic:claude", [1.2, 1.4]);
    expect(priors.get("anthropic:claude")).toBeCloseTo(1.3, 10);
    // A later seed does not overwrite what is known.
    priors.seed("anthropic:claude", [2.0]);
    expect(priors.get("anthropic:claude")).toBeCloseTo(1.3, 10);
    priors.observe("anthropic:claude", { reported: 2000, estimated: 1000 });
    expect(priors.get("anthropic:claude")).toBeGreaterThan(1.3);
    expect(priors.get("openai:gpt-4.1")).toBeUndefined();
  });

  it("learns a family from calls alone, and ignores an empty seed", () => {
    const priors = new FamilyPriors();
    priors.seed("openai:gpt-4.1", []);
    expect(priors.has("openai:gpt-4.1")).toBe(false);
    priors.observe("openai:gpt-4.1", { reported: 1000, estimated: 1000 });
    expect(priors.get("openai:gpt-4.1")).toBe(1);
  });
});
