import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type HandoffArtifact, type HandoffArtifactInput, handoffArtifactSchema } from "./artifact";
import { renderHandoffMarkdown } from "./markdown";
import { TEXT_TRIM_FLOOR, trimArtifactToFit, truncateWithEllipsis } from "./trim";

const artifact = (fields: Partial<HandoffArtifactInput> = {}): HandoffArtifact =>
  handoffArtifactSchema.parse({ goal: "Ship billing", state_summary: "s", ...fields });
const size = (a: HandoffArtifact) => renderHandoffMarkdown(a).length;
const within = (budget: number) => (a: HandoffArtifact) => size(a) <= budget;

const big = artifact({
  goal: `Goal ${"g".repeat(300)}`,
  state_summary: `Summary ${"s".repeat(3000)}`,
  last_completed_step: `Last ${"l".repeat(1000)}`,
  next_step: `Next ${"n".repeat(200)}`,
  completed_work: ["old work", "middle work", "new work"],
  key_decisions: ["decision 1", "decision 2"],
  confirmed_facts: ["fact 1", "fact 2"],
  in_progress: ["x".repeat(500)],
  remaining_tasks: [{ id: "t1", task: "y".repeat(500) }],
  unknowns: ["u".repeat(500)],
  must_preserve: ["m".repeat(500)],
  needs_authorization: ["a".repeat(500)],
  files_modified: ["f.ts"],
});
const protectedFields = (a: HandoffArtifact) => ({
  must_preserve: a.must_preserve,
  remaining_tasks: a.remaining_tasks,
  in_progress: a.in_progress,
  unknowns: a.unknowns,
  needs_authorization: a.needs_authorization,
  files_modified: a.files_modified,
});

describe("trimArtifactToFit", () => {
  it("returns the artifact untouched when it already fits", () => {
    expect(trimArtifactToFit(big, () => true)).toEqual({ artifact: big, trimmed: [] });
  });

  it("cuts the longest free-text field first, with an ellipsis", () => {
    const result = trimArtifactToFit(big, within(size(big) - 100));
    expect(result?.trimmed).toEqual(["state_summary"]);
    expect(result?.artifact.state_summary.endsWith("…")).toBe(true);
    expect(result?.artifact.state_summary.startsWith("Summary sss")).toBe(true);
    expect(result?.artifact.last_completed_step).toBe(big.last_completed_step);
    // The cut is as small as the budget allows, not a blunt halving.
    expect(size(result?.artifact ?? big)).toBeGreaterThan(size(big) - 110);
  });

  it("levels the free-text fields before touching any list", () => {
    const result = trimArtifactToFit(big, within(size(big) - 3000));
    expect(result?.trimmed).toEqual(["state_summary", "last_completed_step"]);
    const cut = result?.artifact;
    expect(cut?.state_summary.length).toBe(cut?.last_completed_step.length);
    expect(cut?.completed_work).toEqual(big.completed_work);
  });

  it("then drops completed work oldest first, then decisions, then facts", () => {
    expect(trimArtifactToFit(big, within(0))).toBeNull();
    const floored: HandoffArtifact = {
      ...big,
      goal: truncateWithEllipsis(big.goal, TEXT_TRIM_FLOOR),
      state_summary: truncateWithEllipsis(big.state_summary, TEXT_TRIM_FLOOR),
      last_completed_step: truncateWithEllipsis(big.last_completed_step, TEXT_TRIM_FLOOR),
      next_step: truncateWithEllipsis(big.next_step, TEXT_TRIM_FLOOR),
    };
    const allText = ["state_summary", "last_completed_step", "next_step", "goal"];

    const oneDropped = { ...floored, completed_work: ["middle work", "new work"] };
    expect(trimArtifactToFit(big, within(size(oneDropped)))).toEqual({
      artifact: oneDropped,
      trimmed: [...allText, "completed_work"],
    });

    const intoFacts = {
      ...floored,
      completed_work: [],
      key_decisions: [],
      confirmed_facts: ["fact 2"],
    };
    expect(trimArtifactToFit(big, within(size(intoFacts)))).toEqual({
      artifact: intoFacts,
      trimmed: [...allText, "completed_work", "key_decisions", "confirmed_facts"],
    });
  });

  it("returns null rather than touch pinned or open items", () => {
    let lastSeen: HandoffArtifact | undefined;
    const result = trimArtifactToFit(big, (a) => {
      lastSeen = a;
      return size(a) <= 1000;
    });
    expect(result).toBeNull();
    expect(lastSeen && protectedFields(lastSeen)).toEqual(protectedFields(big));
  });

  it("never cuts inside a surrogate pair", () => {
    const emoji = artifact({ state_summary: "🧪".repeat(500) });
    const result = trimArtifactToFit(emoji, within(size(emoji) - 7));
    expect(result?.artifact.state_summary.isWellFormed()).toBe(true);
    expect(truncateWithEllipsis("a🧪b", 3)).toBe("a…");
  });

  it("always fits when it answers, and keeps protected fields (property)", () => {
    const text = fc.string({ maxLength: 400 });
    const list = fc.array(text, { maxLength: 5 });
    const arb = fc.record({
      goal: text,
      state_summary: text,
      completed_work: list,
      in_progress: list,
      remaining_tasks: fc.array(fc.record({ id: fc.constantFrom("t1", "t2"), task: text }), {
        maxLength: 3,
      }),
      key_decisions: list,
      confirmed_facts: list,
      unknowns: list,
      must_preserve: list,
      files_modified: list,
      last_completed_step: text,
      next_step: text,
      needs_authorization: list,
    });
    fc.assert(
      fc.property(arb, fc.integer({ min: 200, max: 6000 }), (a, budget) => {
        const result = trimArtifactToFit(a, within(budget));
        if (result === null) return;
        expect(size(result.artifact)).toBeLessThanOrEqual(budget);
        expect(protectedFields(result.artifact)).toEqual(protectedFields(a));
        expect(handoffArtifactSchema.parse(result.artifact)).toEqual(result.artifact);
      }),
      { numRuns: 300 },
    );
  });
});
