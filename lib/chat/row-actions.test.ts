import { describe, expect, it } from "vitest";
import { sameRowActions } from "./row-actions";

describe("sameRowActions", () => {
  const regenerate = () => {};
  const edit = () => {};

  it("holds for no actions, and for the same handlers", () => {
    expect(sameRowActions({}, {})).toBe(true);
    expect(sameRowActions({ onRegenerate: regenerate }, { onRegenerate: regenerate })).toBe(true);
  });

  it("holds for a timeline target with the same fields in a new object", () => {
    const a = { timeline: { threadId: "t1", requestMessageId: "m1" } };
    const b = { timeline: { threadId: "t1", requestMessageId: "m1" } };
    expect(sameRowActions(a, b)).toBe(true);
  });

  it("fails for another handler, even one doing the same", () => {
    expect(sameRowActions({ onRegenerate: regenerate }, { onRegenerate: () => {} })).toBe(false);
  });

  it("fails when an action comes or goes", () => {
    expect(sameRowActions({}, { onEdit: edit })).toBe(false);
    expect(sameRowActions({ onEdit: edit }, {})).toBe(false);
    expect(sameRowActions({ onEdit: edit }, { onRetry: edit })).toBe(false);
    expect(sameRowActions({ onEdit: undefined }, {})).toBe(false);
  });

  it("fails for a timeline target of another reply", () => {
    const a = { timeline: { threadId: "t1", requestMessageId: "m1" } };
    expect(sameRowActions(a, { timeline: { threadId: "t1", requestMessageId: "m2" } })).toBe(false);
    expect(sameRowActions(a, { timeline: { threadId: "t1" } })).toBe(false);
  });
});
