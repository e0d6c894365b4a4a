import { describe, expect, it } from "vitest";
import { emptyArtifact, handoffArtifactSchema } from "@/lib/handoff/artifact";
import { applyDraftEdit, type DraftEdit, draftFieldErrors, nextTaskId } from "./draft-edits";

const draft = handoffArtifactSchema.parse({
  goal: "Plan the office move",
  state_summary: "Two rooms measured",
  completed_work: ["measured room A", "measured room B"],
  confirmed_facts: ["the locker code is 7319", "the lift is small"],
  must_preserve: ["never move on a Friday"],
  remaining_tasks: [
    { id: "t1", task: "book the van" },
    { id: "t3", task: "label boxes" },
  ],
});

const apply = (...edits: DraftEdit[]) => edits.reduce(applyDraftEdit, draft);

describe("applyDraftEdit", () => {
  it("sets a text field and leaves everything else as drafted", () => {
    const edited = apply({ kind: "set_text", field: "goal", value: "Move the office by June" });
    expect(edited).toEqual({ ...draft, goal: "Move the office by June" });
    expect(draft.goal).toBe("Plan the office move");
  });

  it("removes exactly the item at the index", () => {
    const edited = apply({ kind: "remove_item", field: "completed_work", index: 0 });
    expect(edited.completed_work).toEqual(["measured room B"]);
  });

  it("adds a trimmed item once, ignoring spacing and case, and never an empty one", () => {
    const edited = apply(
      { kind: "add_item", field: "unknowns", text: "  who has the keys?  " },
      { kind: "add_item", field: "unknowns", text: "Who  has the KEYS?" },
      { kind: "add_item", field: "unknowns", text: "   " },
    );
    expect(edited.unknowns).toEqual(["who has the keys?"]);
  });

  it("pins a fact by moving it into must_preserve", () => {
    const edited = apply({ kind: "pin_fact", index: 0 });
    expect(edited.confirmed_facts).toEqual(["the lift is small"]);
    expect(edited.must_preserve).toEqual(["never move on a Friday", "the locker code is 7319"]);
  });

  it("unpins by moving the pin back among the confirmed facts", () => {
    const edited = apply({ kind: "unpin", index: 0 });
    expect(edited.must_preserve).toEqual([]);
    expect(edited.confirmed_facts).toEqual([
      "the locker code is 7319",
      "the lift is small",
      "never move on a Friday",
    ]);
  });

  it("pins a fact that is already pinned without carrying it twice", () => {
    const start = applyDraftEdit(draft, {
      kind: "add_item",
      field: "confirmed_facts",
      text: "Never move on a friday",
    });
    const edited = applyDraftEdit(start, { kind: "pin_fact", index: 2 });
    expect(edited.must_preserve).toEqual(["never move on a Friday"]);
    expect(edited.confirmed_facts).toEqual(["the locker code is 7319", "the lift is small"]);
  });

  it("changes nothing for an index that names no item", () => {
    expect(apply({ kind: "pin_fact", index: 9 })).toEqual(draft);
    expect(apply({ kind: "unpin", index: -1 })).toEqual(draft);
    expect(apply({ kind: "remove_item", field: "unknowns", index: 0 })).toEqual(draft);
  });

  it("adds a task under the next free id and removes one by position", () => {
    const edited = apply(
      { kind: "add_task", task: "order boxes" },
      { kind: "remove_task", index: 0 },
    );
    expect(edited.remaining_tasks).toEqual([
      { id: "t3", task: "label boxes" },
      { id: "t4", task: "order boxes" },
    ]);
    expect(apply({ kind: "add_task", task: "  " }).remaining_tasks).toEqual(draft.remaining_tasks);
  });

  it("keeps the edited artifact valid for the handoff schema", () => {
    const edited = apply(
      { kind: "pin_fact", index: 1 },
      { kind: "add_task", task: "call the landlord" },
      { kind: "set_text", field: "next_step", value: "book the van" },
    );
    expect(handoffArtifactSchema.parse(edited)).toEqual(edited);
  });
});

describe("nextTaskId", () => {
  it("counts past the highest tN and skips ids that are taken", () => {
    expect(nextTaskId([])).toBe("t1");
    expect(nextTaskId(emptyArtifact().remaining_tasks)).toBe("t1");
    expect(
      nextTaskId([
        { id: "t2", task: "a" },
        { id: "custom", task: "b" },
      ]),
    ).toBe("t3");
  });
});

describe("draftFieldErrors", () => {
  it("puts each server error next to the field and item it names", () => {
    const { byField, other } = draftFieldErrors({
      "draft.goal": ["Too big: expected string to have <=20000 characters"],
      "draft.completed_work.1": ["Too big"],
      "draft.remaining_tasks.0.id": ["Too small"],
      "draft.surprise": ["This field is not allowed."],
      "(body)": ["The request is invalid."],
    });
    expect(byField.goal).toEqual({
      messages: ["Too big: expected string to have <=20000 characters"],
      items: {},
    });
    expect(byField.completed_work).toEqual({ messages: [], items: { 1: ["Too big"] } });
    expect(byField.remaining_tasks).toEqual({ messages: [], items: { 0: ["Too small"] } });
    expect(other).toEqual([
      "draft.surprise: This field is not allowed.",
      "The request is invalid.",
    ]);
  });

  it("reads keys without the draft prefix too, and nothing from no errors", () => {
    expect(draftFieldErrors({ next_step: ["Required"] }).byField.next_step?.messages).toEqual([
      "Required",
    ]);
    expect(draftFieldErrors(undefined)).toEqual({ byField: {}, other: [] });
  });
});
