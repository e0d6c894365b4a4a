import { describe, expect, it } from "vitest";
import { type HandoffArtifactInput, handoffArtifactSchema } from "./artifact";
import { mergeIntoDraft } from "./draft-merge";
import { LAST_USER_REQUEST_PREFIX } from "./merge";

const artifact = (fields: Partial<HandoffArtifactInput> = {}) =>
  handoffArtifactSchema.parse({ goal: "Ship billing", state_summary: "drafted", ...fields });

describe("mergeIntoDraft", () => {
  const draft = artifact({
    key_decisions: ["bill monthly"],
    remaining_tasks: [{ id: "t1", task: "write the invoice template" }],
    in_progress: [`${LAST_USER_REQUEST_PREFIX}what about refunds?`],
    files_modified: ["billing.ts"],
  });

  it("keeps the draft's own text and adds what the later messages marked", () => {
    const merged = mergeIntoDraft({
      draft,
      previous: null,
      laterUserTexts: ["decide use Postgres", "Some chatter. todo add refunds", "done t1"],
      filesTouched: ["billing.ts", "refunds.ts"],
      lastUserRequest: "done t1",
    });
    expect(merged.state_summary).toBe("drafted");
    expect(merged.key_decisions).toEqual(["bill monthly", "use Postgres"]);
    expect(merged.remaining_tasks).toEqual([{ id: "t2", task: "add refunds" }]);
    expect(merged.completed_work).toEqual(["t1: write the invoice template"]);
    expect(merged.files_modified).toEqual(["billing.ts", "refunds.ts"]);
  });

  it("replaces the request the draft recorded with the newest one", () => {
    const merged = mergeIntoDraft({
      draft,
      previous: null,
      laterUserTexts: ["and the tax rules?"],
      filesTouched: [],
      lastUserRequest: "and the tax rules?",
    });
    expect(merged.in_progress).toEqual([`${LAST_USER_REQUEST_PREFIX}and the tax rules?`]);
  });

  it("keeps the previous handoff's tasks the draft did not settle (pins come from the thread)", () => {
    const previous = artifact({
      must_preserve: ["the vault is in Lisbon"],
      remaining_tasks: [
        { id: "t1", task: "write the invoice template" },
        { id: "t5", task: "email the auditor" },
      ],
    });
    const merged = mergeIntoDraft({
      draft,
      previous,
      laterUserTexts: ["done t1"],
      filesTouched: [],
    });
    // Pins are the thread's (lib/context/thread-pins.ts applies them after this merge), never a
    // union with the previous brief's: a pin the user removed must stay removed.
    expect(merged.must_preserve).toEqual([]);
    expect(merged.remaining_tasks).toEqual([{ id: "t5", task: "email the auditor" }]);
    // No newer request: the draft's stays.
    expect(merged.in_progress).toEqual([`${LAST_USER_REQUEST_PREFIX}what about refunds?`]);
  });
});
