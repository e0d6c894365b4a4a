import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type HandoffArtifact, type HandoffArtifactInput, handoffArtifactSchema } from "./artifact";
import { renderHandoffMarkdown } from "./markdown";
import { neverDroppedPart, TEXT_TRIM_FLOOR, trimArtifactToFit, truncateWithEllipsis } from "./trim";

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
  key_decisions: a.key_decisions,
  must_preserve: a.must_preserve,
  remaining_tasks: a.remaining_tasks,
  in_progress: a.in_progress,
  unknowns: a.unknowns,
  needs_authorization: a.needs_authorization,
});

describe("trimArtifactToFit", () => {
  it("returns the artifact untouched when it already fits", () => {
    expect(trimArtifactToFit(big, () => true)).toEqual({ artifact: big, trimmed: [], dropped: [] });
  });

  it("drops the detail of completed work first, oldest first, and lists what it dropped", () => {
    const oneDropped = { ...big, completed_work: ["middle work", "new work"] };
    expect(trimArtifactToFit(big, within(size(oneDropped)))).toEqual({
      artifact: oneDropped,
      trimmed: ["completed_work"],
      dropped: [{ field: "completed_work", item: "old work" }],
    });
    const allDone = { ...big, completed_work: [], last_completed_step: "" };
    const result = trimArtifactToFit(big, within(size(allDone)));
    expect(result?.artifact).toEqual(allDone);
    expect(result?.dropped.map((d) => d.field)).toEqual([
      "completed_work",
      "completed_work",
      "completed_work",
      "last_completed_step",
    ]);
  });

  it("then cuts the longest free-text field, with an ellipsis, keeping the rest", () => {
    const noDetail = { ...big, completed_work: [], last_completed_step: "" };
    const result = trimArtifactToFit(big, within(size(noDetail) - 100));
    expect(result?.trimmed).toEqual(["completed_work", "last_completed_step", "state_summary"]);
    expect(result?.artifact.state_summary.endsWith("…")).toBe(true);
    expect(result?.artifact.state_summary.startsWith("Summary sss")).toBe(true);
    expect(result?.artifact.next_step).toBe(big.next_step);
    // The cut is as small as the budget allows, not a blunt halving.
    expect(size(result?.artifact ?? big)).toBeGreaterThan(size(noDetail) - 110);
    // A cut field is listed with its full text.
    expect(result?.dropped.at(-1)).toEqual({ field: "state_summary", item: big.state_summary });
  });

  it("then drops unpinned facts oldest first, never decisions", () => {
    const intoFacts: HandoffArtifact = {
      ...big,
      goal: truncateWithEllipsis(big.goal, TEXT_TRIM_FLOOR),
      state_summary: "",
      next_step: "",
      completed_work: [],
      last_completed_step: "",
      confirmed_facts: ["fact 2"],
    };
    const result = trimArtifactToFit(big, within(size(intoFacts)));
    expect(result?.artifact).toEqual(intoFacts);
    expect(result?.artifact.key_decisions).toEqual(big.key_decisions);
    expect(result?.dropped).toContainEqual({ field: "confirmed_facts", item: "fact 1" });
    expect(result?.dropped).not.toContainEqual({ field: "confirmed_facts", item: "fact 2" });
    expect(result?.dropped.filter((d) => d.field === "state_summary")).toEqual([
      { field: "state_summary", item: big.state_summary },
    ]);
  });

  it("returns null rather than touch decisions, pinned or open items", () => {
    let lastSeen: HandoffArtifact | undefined;
    const result = trimArtifactToFit(big, (a) => {
      lastSeen = a;
      return size(a) <= 1000;
    });
    expect(result).toBeNull();
    expect(lastSeen && protectedFields(lastSeen)).toEqual(protectedFields(big));
    expect(size(neverDroppedPart(big))).toBeGreaterThan(1000);
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
        // Whatever left a list is listed as dropped.
        for (const field of ["completed_work", "confirmed_facts", "files_modified"] as const) {
          const gone = a[field].slice(0, a[field].length - result.artifact[field].length);
          for (const item of gone) expect(result.dropped).toContainEqual({ field, item });
        }
      }),
      { numRuns: 300 },
    );
  });
});
