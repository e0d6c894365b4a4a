import { describe, expect, it } from "vitest";
import { emptyArtifact } from "@/lib/handoff/artifact";
import { applyRunFacts, stepInFlightOf } from "./mechanical-facts";

const plan = [
  { id: "p1", task: "Outline", status: "done" as const },
  { id: "p2", task: "Draft", status: "in_progress" as const },
  { id: "p3", task: "Review", status: "pending" as const },
  { id: "p4", task: "Publish", status: "pending" as const },
];

describe("applyRunFacts", () => {
  it("places every plan item once, by status, over what the model wrote", () => {
    const written = {
      ...emptyArtifact("goal", "summary"),
      remaining_tasks: [
        { id: "p1", task: "Outline" },
        { id: "t1", task: "call the bank" },
      ],
      completed_work: ["p3: Review", "Booked the venue"],
      in_progress: ["Last user request: work through the plan"],
    };
    const out = applyRunFacts(written, { filesModified: [], plan, pendingCalls: [] });
    expect(out.remaining_tasks).toEqual([
      { id: "t1", task: "call the bank" },
      { id: "p3", task: "Review" },
      { id: "p4", task: "Publish" },
    ]);
    expect(out.in_progress).toEqual(["Last user request: work through the plan", "p2: Draft"]);
    expect(out.completed_work).toEqual(["Booked the venue", "p1: Outline"]);
  });

  it("sets files_modified to exactly the session's paths, and lists pending calls", () => {
    const written = { ...emptyArtifact("g", "s"), files_modified: ["made-up.md"] };
    const out = applyRunFacts(written, {
      filesModified: ["work/p1.md", "work/p2.md", "work/p1.md"],
      plan: [],
      pendingCalls: ['delete_file {"path":"a.md"} (awaiting approval; not run)'],
    });
    expect(out.files_modified).toEqual(["work/p1.md", "work/p2.md"]);
    expect(out.needs_authorization).toEqual([
      'delete_file {"path":"a.md"} (awaiting approval; not run)',
    ]);
  });

  it("puts the step in flight in next_step, and keeps the model's otherwise", () => {
    const written = { ...emptyArtifact("g", "s"), next_step: "model's idea" };
    const base = { filesModified: [], plan, pendingCalls: [] };
    expect(applyRunFacts(written, base).next_step).toBe("model's idea");
    expect(applyRunFacts(written, { ...base, stepInFlight: "Continue p2" }).next_step).toBe(
      "Continue p2",
    );
  });
});

describe("stepInFlightOf", () => {
  it("names the item in progress, else the next pending one, else the request", () => {
    expect(stepInFlightOf(plan, "x")).toContain("p2: Draft");
    expect(stepInFlightOf(plan.slice(2), "x")).toContain("p3: Review");
    expect(stepInFlightOf([], "summarize the files")).toBe(
      "Continue the task: summarize the files",
    );
  });
});
