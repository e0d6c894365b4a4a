import { describe, expect, it } from "vitest";
import { defaultProfile } from "@/lib/agents/profiles";
import type { ContextPart } from "@/lib/chat/types";
import { inDraftWindow } from "./draft-ahead";

const reading = (
  utilization: number,
  strategy: ContextPart["strategy"] = "reset",
): ContextPart => ({
  inputTokens: Math.round(utilization * 1000),
  contextWindow: 1000,
  utilization,
  threshold: 0.8,
  strategy,
});

describe("the drafting window", () => {
  it("runs from the draft threshold (inclusive) to the reset threshold (exclusive)", () => {
    const profile = { ...defaultProfile(), draftThreshold: 0.65, resetThreshold: 0.8 };
    expect(inDraftWindow(profile, reading(0.64))).toBe(false);
    expect(inDraftWindow(profile, reading(0.65))).toBe(true);
    expect(inDraftWindow(profile, reading(0.79))).toBe(true);
    expect(inDraftWindow(profile, reading(0.8))).toBe(false);
  });

  it("is closed when drafting is off or the session compacts instead of resetting", () => {
    const profile = defaultProfile();
    expect(inDraftWindow({ ...profile, draftThreshold: null }, reading(0.7))).toBe(false);
    expect(inDraftWindow(profile, reading(0.7, "compact"))).toBe(false);
    expect(inDraftWindow(profile, reading(0.7, "off"))).toBe(false);
  });
});
