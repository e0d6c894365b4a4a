import { describe, expect, it } from "vitest";
import { ShareAnchors, type SharedSessionSummary } from "./share-anchors";

function session(number: number, firstSeq: number | null, cursor: string | null) {
  return { number, firstSeq, cursor } as SharedSessionSummary;
}

const query = (params: URLSearchParams | null) =>
  params === null ? null : Object.fromEntries(params);

describe("share anchors", () => {
  it("opens the newest page without a cursor", () => {
    expect(query(new ShareAnchors().params({}))).toEqual({});
  });

  it("opens a position with the cursor handed out for it", () => {
    const anchors = new ShareAnchors();
    anchors.addSessions([session(1, 1, "s1"), session(2, 40, "s2"), session(3, null, null)]);
    anchors.addPage(
      { from: 90, to: Number.POSITIVE_INFINITY },
      { olderCursor: "o90", newerCursor: null },
    );
    anchors.addPage({ from: 40, to: 49 }, { olderCursor: "o40", newerCursor: "n50" });
    expect(query(anchors.params({ beforeSeq: 90 }))).toEqual({ before: "o90" });
    expect(query(anchors.params({ fromSeq: 50 }))).toEqual({ from: "n50" });
    expect(query(anchors.params({ fromSeq: 1 }))).toEqual({ from: "s1" });
    // A page's older cursor at a session's start stands for the same position.
    expect(query(anchors.params({ beforeSeq: 40 }))).toEqual({ before: "o40" });
  });

  it("reaches an unloaded stretch from the nearest cursor before it", () => {
    const anchors = new ShareAnchors();
    anchors.addSessions([session(1, 1, "s1"), session(2, 400, "s2")]);
    expect(query(anchors.params({ fromSeq: 250 }))).toEqual({ from: "s1", skip: "249" });
    expect(query(anchors.params({ fromSeq: 420 }))).toEqual({ from: "s2", skip: "20" });
    expect(query(anchors.params({ beforeSeq: 399 }))).toEqual({ before: "s1", skip: "398" });
  });

  it("cannot open a position before every cursor it holds", () => {
    const anchors = new ShareAnchors();
    anchors.addSessions([session(2, 400, "s2")]);
    expect(anchors.params({ fromSeq: 12 })).toBeNull();
  });
});
