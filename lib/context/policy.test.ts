import { describe, expect, it } from "vitest";
import {
  type ContextDecisionInput,
  computeUtilization,
  decideContextAction,
  profileThresholdsSchema,
  sessionContextTokens,
} from "./policy";

const turnStart = { compactedThisTurn: false, resetThisTurn: false } as const;

function decide(input: Partial<ContextDecisionInput> & Pick<ContextDecisionInput, "utilization">) {
  return decideContextAction({ strategy: "reset", ...turnStart, ...input });
}

describe("computeUtilization", () => {
  it("divides context tokens by the window", () => {
    expect(computeUtilization({ contextTokens: 3277, contextWindow: 4096 })).toBeCloseTo(0.8, 3);
    expect(computeUtilization({ contextTokens: 0, contextWindow: 4096 })).toBe(0);
  });

  it("goes above 1 when the prompt no longer fits", () => {
    expect(computeUtilization({ contextTokens: 5000, contextWindow: 4000 })).toBe(1.25);
  });

  it("reads a non-positive or non-finite window as 0 instead of Infinity or NaN", () => {
    expect(computeUtilization({ contextTokens: 100, contextWindow: 0 })).toBe(0);
    expect(computeUtilization({ contextTokens: 100, contextWindow: -5 })).toBe(0);
    expect(computeUtilization({ contextTokens: 100, contextWindow: Number.NaN })).toBe(0);
    expect(computeUtilization({ contextTokens: 100, contextWindow: Infinity })).toBe(0);
  });

  it("never returns a negative number", () => {
    expect(computeUtilization({ contextTokens: -10, contextWindow: 100 })).toBe(0);
  });
});

describe("sessionContextTokens", () => {
  it("adds the local estimate since the last call to the provider-reported input tokens", () => {
    expect(
      sessionContextTokens({ lastReportedInputTokens: 3000, estimatedSinceLastCall: 250 }),
    ).toBe(3250);
  });

  it("uses the estimate alone before the session's first call", () => {
    expect(
      sessionContextTokens({ lastReportedInputTokens: null, estimatedSinceLastCall: 900 }),
    ).toBe(900);
  });

  it("ignores negative inputs", () => {
    expect(sessionContextTokens({ lastReportedInputTokens: -1, estimatedSinceLastCall: -5 })).toBe(
      0,
    );
  });
});

describe("decideContextAction", () => {
  it("does nothing below the thresholds", () => {
    for (const strategy of ["reset", "compact", "off"] as const) {
      expect(decide({ strategy, utilization: 0.3 })).toBe("none");
    }
  });

  it("treats the reset threshold as inclusive: 0.8 resets, 0.7999 does not", () => {
    expect(decide({ utilization: 0.8 })).toBe("reset");
    expect(decide({ utilization: 0.7999 })).toBe("none");
    expect(decide({ utilization: 1.4 })).toBe("reset");
  });

  it("treats the compact threshold as inclusive: 0.5 compacts, 0.4999 does not", () => {
    expect(decide({ strategy: "compact", utilization: 0.5 })).toBe("compact");
    expect(decide({ strategy: "compact", utilization: 0.4999 })).toBe("none");
  });

  it("never compacts under the reset strategy", () => {
    expect(decide({ strategy: "reset", utilization: 0.6 })).toBe("none");
    expect(decide({ strategy: "reset", utilization: 0.79 })).toBe("none");
  });

  it("does neither under the off strategy", () => {
    expect(decide({ strategy: "off", utilization: 0.6 })).toBe("none");
    expect(decide({ strategy: "off", utilization: 0.95 })).toBe("none");
  });

  it("compacts first under the compact strategy, even above the reset threshold", () => {
    expect(decide({ strategy: "compact", utilization: 0.95 })).toBe("compact");
  });

  it("resets when compaction was not enough", () => {
    const afterCompaction = { strategy: "compact", compactedThisTurn: true } as const;
    expect(decide({ ...afterCompaction, utilization: 0.85 })).toBe("reset");
    expect(decide({ ...afterCompaction, utilization: 0.8 })).toBe("reset");
  });

  it("does not compact twice in a turn when compaction brought utilization below reset", () => {
    expect(decide({ strategy: "compact", compactedThisTurn: true, utilization: 0.6 })).toBe("none");
    expect(decide({ strategy: "compact", compactedThisTurn: true, utilization: 0.3 })).toBe("none");
  });

  it("walks the two tiers in order as the turn runner measures again after each action", () => {
    const thresholds = { resetThreshold: 0.9, compactThreshold: 0.6 };
    const base = { strategy: "compact", ...thresholds, resetThisTurn: false } as const;
    expect(decide({ ...base, utilization: 0.59 })).toBe("none");
    expect(decide({ ...base, utilization: 0.6 })).toBe("compact");
    expect(decide({ ...base, compactedThisTurn: true, utilization: 0.89 })).toBe("none");
    expect(decide({ ...base, compactedThisTurn: true, utilization: 0.9 })).toBe("reset");
  });

  it("resets at most once per turn", () => {
    expect(decide({ strategy: "reset", resetThisTurn: true, utilization: 0.99 })).toBe("none");
    expect(
      decide({
        strategy: "compact",
        compactedThisTurn: true,
        resetThisTurn: true,
        utilization: 0.99,
      }),
    ).toBe("none");
  });

  it("may still compact the new session after this turn's reset", () => {
    expect(decide({ strategy: "compact", resetThisTurn: true, utilization: 0.55 })).toBe("compact");
  });

  it("accepts equal thresholds and uses them both", () => {
    const equal = { strategy: "compact", resetThreshold: 0.7, compactThreshold: 0.7 } as const;
    expect(decide({ ...equal, utilization: 0.7 })).toBe("compact");
    expect(decide({ ...equal, compactedThisTurn: true, utilization: 0.7 })).toBe("reset");
  });

  it.each([
    { resetThreshold: 0, compactThreshold: 0 },
    { resetThreshold: 1.01, compactThreshold: 0.5 },
    { resetThreshold: 0.8, compactThreshold: 0 },
    { resetThreshold: 0.8, compactThreshold: -0.1 },
    { resetThreshold: 0.5, compactThreshold: 0.6 },
    { resetThreshold: Number.NaN, compactThreshold: 0.5 },
  ])("rejects thresholds %o with a RangeError", (thresholds) => {
    expect(() => decide({ utilization: 0.5, ...thresholds })).toThrow(RangeError);
  });

  it("rejects a utilization that is not a non-negative number", () => {
    expect(() => decide({ utilization: Number.NaN })).toThrow(RangeError);
    expect(() => decide({ utilization: -0.1 })).toThrow(RangeError);
  });
});

describe("profileThresholdsSchema", () => {
  it("defaults to reset at 0.8 and compact at 0.5", () => {
    expect(profileThresholdsSchema.parse({})).toEqual({
      resetThreshold: 0.8,
      compactThreshold: 0.5,
    });
  });

  it("accepts thresholds within bounds, including reset at 1", () => {
    expect(profileThresholdsSchema.parse({ resetThreshold: 1, compactThreshold: 1 })).toEqual({
      resetThreshold: 1,
      compactThreshold: 1,
    });
  });

  it.each([
    { resetThreshold: 0 },
    { resetThreshold: 1.5 },
    { compactThreshold: 0 },
    { compactThreshold: 0.9 },
    { resetThreshold: 0.4 },
    { resetThreshold: "0.8" },
  ])("rejects %o", (input) => {
    expect(profileThresholdsSchema.safeParse(input).success).toBe(false);
  });

  it("points the ordering error at compactThreshold", () => {
    const result = profileThresholdsSchema.safeParse({
      resetThreshold: 0.6,
      compactThreshold: 0.7,
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["compactThreshold"]);
  });

  it("agrees with decideContextAction on what is valid", () => {
    const parsed = profileThresholdsSchema.parse({ resetThreshold: 0.65, compactThreshold: 0.65 });
    expect(() => decide({ utilization: 0.1, ...parsed })).not.toThrow();
  });
});
