import { describe, expect, it } from "vitest";
import {
  emptyArtifact,
  type HandoffArtifact,
  type HandoffArtifactInput,
  handoffArtifactSchema,
} from "./artifact";
import { LAST_USER_REQUEST_PREFIX, mechanicalArtifact, mergeMechanicalFacts } from "./merge";

const artifact = (fields: Partial<HandoffArtifactInput> = {}): HandoffArtifact =>
  handoffArtifactSchema.parse({ goal: "Ship billing", state_summary: "s", ...fields });

describe("mergeMechanicalFacts: files and the last request", () => {
  it("unions files touched into files_modified without duplicates", () => {
    const merged = mergeMechanicalFacts({
      artifact: artifact({ files_modified: ["a.ts", "b.ts"] }),
      filesTouched: ["b.ts", "c.ts", "c.ts", ""],
    });
    expect(merged.files_modified).toEqual(["a.ts", "b.ts", "c.ts"]);
  });

  it("adds the last user request verbatim to in_progress when it is missing", () => {
    const request = "Add a  refund button\nnext to `Pay`";
    const merged = mergeMechanicalFacts({
      artifact: artifact(),
      filesTouched: [],
      lastUserRequest: request,
    });
    expect(merged.in_progress).toEqual([`${LAST_USER_REQUEST_PREFIX}${request}`]);
  });

  it("does not add the request when an untrimmable field already quotes it", () => {
    const merged = mergeMechanicalFacts({
      artifact: artifact({
        remaining_tasks: [{ id: "t1", task: "User asked: add a refund button" }],
      }),
      filesTouched: [],
      lastUserRequest: "add a refund button",
    });
    expect(merged.in_progress).toEqual([]);
  });

  it("still adds the request when only a trimmable field (next_step) quotes it", () => {
    const merged = mergeMechanicalFacts({
      artifact: artifact({ next_step: "add a refund button" }),
      filesTouched: [],
      lastUserRequest: "add a refund button",
    });
    expect(merged.in_progress).toEqual([`${LAST_USER_REQUEST_PREFIX}add a refund button`]);
    expect(merged.next_step).toBe("add a refund button");
  });

  it("ignores an empty request and does not mutate its input", () => {
    const input = artifact({ in_progress: ["x"] });
    const before = structuredClone(input);
    const merged = mergeMechanicalFacts({
      artifact: input,
      filesTouched: ["f"],
      lastUserRequest: "  ",
    });
    expect(merged.in_progress).toEqual(["x"]);
    expect(input).toEqual(before);
  });
});

describe("mergeMechanicalFacts: carried from the previous artifact", () => {
  const previous = artifact({
    must_preserve: ["Never charge twice", "Prices in cents"],
    remaining_tasks: [
      { id: "t1", task: "Write refund tests" },
      { id: "t2", task: "Email receipts" },
      { id: "t3", task: "Add VAT" },
      { id: "t4", task: "Localize dates" },
    ],
    in_progress: ["Refund flow", "Invoice PDF", `${LAST_USER_REQUEST_PREFIX}old request`],
    unknowns: ["Do we need VAT IDs", "Which PDF library"],
    needs_authorization: ["Deploy to production", "Delete old invoices"],
  });

  it("leaves must_preserve as written: the reset takes pins from the thread, not the brief", () => {
    const merged = mergeMechanicalFacts({
      artifact: artifact({ must_preserve: ["Prices in cents", "Use UTC"] }),
      previous,
      filesTouched: [],
    });
    expect(merged.must_preserve).toEqual(["Prices in cents", "Use UTC"]);
  });

  it("carries open tasks unless completed_work names their id or text", () => {
    const merged = mergeMechanicalFacts({
      artifact: artifact({
        completed_work: ["t1 done: tests pass", "Email receipts"],
        remaining_tasks: [{ id: "t5", task: "Localize dates" }],
      }),
      previous,
      filesTouched: [],
    });
    // t4 is re-listed by the model as t5, so it is not carried twice.
    expect(merged.remaining_tasks).toEqual([
      { id: "t3", task: "Add VAT" },
      { id: "t5", task: "Localize dates" },
    ]);
  });

  it("matches task ids as whole words (t1 is not done because t10 is)", () => {
    const merged = mergeMechanicalFacts({
      artifact: artifact({ completed_work: ["Finished t10"] }),
      previous: artifact({ remaining_tasks: [{ id: "t1", task: "x" }] }),
      filesTouched: [],
    });
    expect(merged.remaining_tasks).toEqual([{ id: "t1", task: "x" }]);
  });

  it("keeps the model's wording of a task it kept under the same id", () => {
    const merged = mergeMechanicalFacts({
      artifact: artifact({ remaining_tasks: [{ id: "t3", task: "Add VAT for EU only" }] }),
      previous,
      filesTouched: [],
    });
    expect(merged.remaining_tasks.map((t) => t.task)).toEqual([
      "Write refund tests",
      "Email receipts",
      "Add VAT for EU only",
      "Localize dates",
    ]);
  });

  it("carries in-progress work, unknowns and authorizations unless settled", () => {
    const merged = mergeMechanicalFacts({
      artifact: artifact({
        completed_work: ["Refund flow", "Delete old invoices: approved and done"],
        confirmed_facts: ["Which PDF library: pdfkit"],
        in_progress: ["refund  FLOW"],
      }),
      previous,
      filesTouched: [],
    });
    // Same item in other spacing/case keeps its place with the new wording; the previous
    // "Last user request" item is refreshed, not carried.
    expect(merged.in_progress).toEqual(["refund  FLOW", "Invoice PDF"]);
    expect(merged.unknowns).toEqual(["Do we need VAT IDs"]);
    expect(merged.needs_authorization).toEqual(["Deploy to production"]);
  });

  it("carries open tasks and refreshes the last request through chained merges 1 → 2 → 3", () => {
    const first = mergeMechanicalFacts({
      artifact: artifact({ must_preserve: ["pin A"], remaining_tasks: [{ id: "t1", task: "a" }] }),
      previous: null,
      filesTouched: ["one.ts"],
      lastUserRequest: "request 1",
    });
    const second = mergeMechanicalFacts({
      artifact: artifact({ must_preserve: ["pin B"] }),
      previous: first,
      filesTouched: ["two.ts"],
      lastUserRequest: "request 2",
    });
    const third = mergeMechanicalFacts({
      artifact: artifact({ completed_work: ["t1"] }),
      previous: second,
      filesTouched: [],
      lastUserRequest: "request 3",
    });
    expect(third.must_preserve).toEqual([]);
    expect(second.remaining_tasks).toEqual([{ id: "t1", task: "a" }]);
    expect(third.remaining_tasks).toEqual([]);
    expect(third.in_progress).toEqual([`${LAST_USER_REQUEST_PREFIX}request 3`]);
  });
});

describe("mechanicalArtifact", () => {
  it("takes the goal from the previous artifact and keeps what it carried", () => {
    const previous = artifact({
      goal: "Ship billing",
      completed_work: ["Checkout"],
      key_decisions: ["Stripe"],
      confirmed_facts: ["Cents"],
      must_preserve: ["Never charge twice"],
      remaining_tasks: [{ id: "t1", task: "Refunds" }],
      unknowns: ["VAT?"],
    });
    const result = mechanicalArtifact({
      previous,
      userMessages: ["first", "second", "make refunds work"],
      filesTouched: ["refund.ts"],
    });
    expect(result).toEqual({
      ...emptyArtifact("Ship billing", result.state_summary),
      completed_work: ["Checkout"],
      key_decisions: ["Stripe"],
      confirmed_facts: ["Cents"],
      // Pins come from the thread's pins at the reset, not from the previous brief.
      must_preserve: [],
      remaining_tasks: [{ id: "t1", task: "Refunds" }],
      unknowns: ["VAT?"],
      in_progress: [`${LAST_USER_REQUEST_PREFIX}make refunds work`],
      files_modified: ["refund.ts"],
    });
    expect(result.state_summary).toMatch(/^Mechanical handoff/);
    expect(result.state_summary).toContain("- second\n- make refunds work");
    expect(handoffArtifactSchema.parse(result)).toEqual(result);
  });

  it("takes the goal from the first user message without a previous artifact", () => {
    const long = `Build a  billing\npage ${"x".repeat(300)}`;
    const result = mechanicalArtifact({ userMessages: ["", long, "next"], filesTouched: [] });
    expect(result.goal.startsWith("Build a billing page x")).toBe(true);
    expect(result.goal.length).toBe(200);
    expect(result.goal.endsWith("…")).toBe(true);
  });

  it("prefers an explicit goal and quotes only the last five messages", () => {
    const result = mechanicalArtifact({
      goal: "Explicit",
      userMessages: ["m1", "m2", "m3", "m4", "m5", "m6"],
      filesTouched: [],
    });
    expect(result.goal).toBe("Explicit");
    expect(result.state_summary).not.toContain("- m1");
    expect(result.state_summary).toContain("- m2\n- m3\n- m4\n- m5\n- m6");
  });

  it("works with no messages at all", () => {
    const result = mechanicalArtifact({ userMessages: [], filesTouched: [] });
    expect(result.goal).toBe("");
    expect(result.in_progress).toEqual([]);
    expect(handoffArtifactSchema.parse(result)).toEqual(result);
  });
});

describe("mergeMechanicalFacts: what counts as done", () => {
  it("does not settle a short item because a longer done item contains it", () => {
    const merged = mergeMechanicalFacts({
      artifact: artifact({ completed_work: ["Ran the tests for a release"] }),
      previous: artifact({
        remaining_tasks: [{ id: "x-1", task: "tests" }],
        in_progress: ["a release"],
      }),
      filesTouched: [],
    });
    expect(merged.remaining_tasks).toEqual([{ id: "x-1", task: "tests" }]);
    expect(merged.in_progress).toEqual(["a release"]);
  });

  it("settles a short item said exactly, ignoring case and spacing", () => {
    const merged = mergeMechanicalFacts({
      artifact: artifact({ completed_work: ["TESTS"] }),
      previous: artifact({ remaining_tasks: [{ id: "x-1", task: "tests" }] }),
      filesTouched: [],
    });
    expect(merged.remaining_tasks).toEqual([]);
  });
});
