import { describe, expect, it } from "vitest";
import type { ChatMessage, SessionSummary } from "@/lib/chat/types";
import { KeptPages, keepNear, type LoadedPage } from "./kept-pages";
import { mergeSeqRanges, messageGaps, type SeqRange } from "./message-gaps";

const THREAD = 1000;
const session: SessionSummary = {
  id: "s1",
  number: 1,
  model: "baton/local",
  profile: "default",
  trigger: "initial",
  startedAt: "2025-01-01T00:00:00.000Z",
  endedAt: null,
  firstSeq: 1,
  messageCount: THREAD,
  handoff: null,
};

function message(seq: number): ChatMessage {
  return {
    id: `m${seq}`,
    role: seq % 2 === 1 ? "user" : "assistant",
    parts: [{ type: "text", text: `Message ${seq}` }],
    metadata: { seq, sessionId: "s1" },
  };
}

/** Messages `from`..`to` as the thread API returns them. */
function range(from: number, to: number): ChatMessage[] {
  return Array.from({ length: to - from + 1 }, (_, i) => message(from + i));
}

/** The newest page holds 901..1000 and covers everything from 901 on. */
const newest: SeqRange[] = [{ from: 901, to: Number.POSITIVE_INFINITY }];

/** Reads pages upward from the newest, as scrolling up does, `count` of them. */
function scrollUp(store: KeptPages, count: number): readonly LoadedPage[] {
  let kept: readonly LoadedPage[] = [];
  for (let i = 0; i < count; i++) {
    const to = 900 - 100 * i;
    const query = store.nextQuery([{ beforeSeq: to + 1 }]);
    expect(query).toEqual({ beforeSeq: to + 1 });
    kept = store.add(range(to - 99, to), { from: to - 99, to }, newest);
  }
  return kept;
}

function gapsOf(kept: readonly LoadedPage[]) {
  const covered = mergeSeqRanges([...newest, ...kept.flatMap((page) => page.covers)]);
  const messages = [...kept.flatMap((page) => page.messages), ...range(901, 1000)];
  return messageGaps({ sessions: [session], messages, covered });
}

const seqsOf = (kept: readonly LoadedPage[]) =>
  kept.map((page) => [page.messages[0]?.metadata?.seq, page.messages.at(-1)?.metadata?.seq]);

describe("KeptPages", () => {
  it("keeps every page while they hold no more than the bound", () => {
    const kept = scrollUp(new KeptPages(300), 3);
    expect(seqsOf(kept)).toEqual([
      [801, 900],
      [701, 800],
      [601, 700],
    ]);
    expect(gapsOf(kept)).toEqual([
      { sessionNumber: 1, fromSeq: 1, toSeq: 600, count: 600, loadedBelow: true },
    ]);
  });

  it("past the bound, lets go of the page farthest from the one just read", () => {
    const store = new KeptPages(300);
    const kept = scrollUp(store, 5);
    expect(seqsOf(kept)).toEqual([
      [601, 700],
      [501, 600],
      [401, 500],
    ]);
    // What was let go is a gap again, counted exactly, so the list stands in for it.
    expect(gapsOf(kept)).toEqual([
      { sessionNumber: 1, fromSeq: 1, toSeq: 400, count: 400, loadedBelow: true },
      { sessionNumber: 1, fromSeq: 701, toSeq: 900, count: 200, loadedBelow: true },
    ]);
    // Coming back down, the page let go may be read again (it was asked for once before).
    expect(store.nextQuery([{ beforeSeq: 901 }])).toEqual({ beforeSeq: 901 });
    const back = store.add(range(801, 900), { from: 801, to: 900 }, newest);
    expect(seqsOf(back)).toEqual([
      [601, 700],
      [501, 600],
      [801, 900],
    ]);
    expect(back.at(-1)?.messages).toHaveLength(100);
  });

  it("asks for a page once while it is kept", () => {
    const store = new KeptPages(300);
    scrollUp(store, 1);
    expect(store.nextQuery([{ beforeSeq: 901 }])).toBeNull();
    expect(store.nextQuery([{ beforeSeq: 901 }, { fromSeq: 1 }])).toEqual({ fromSeq: 1 });
  });

  it("a page overlapping one kept covers only what it added, so letting either go is exact", () => {
    const store = new KeptPages(1000);
    scrollUp(store, 4); // 501..900
    // Read forward from 451: 451..550, of which 501..550 are held already.
    const kept = store.add(range(451, 550), { from: 451, to: 550 }, newest);
    const added = kept.at(-1);
    expect(added?.messages.map((m) => m.metadata?.seq)).toEqual(
      range(451, 500).map((m) => m.metadata?.seq),
    );
    expect(added?.covers).toEqual([{ from: 451, to: 500 }]);
    // Without the page holding 501..600, exactly those 100 messages are a gap again.
    const without = kept.filter((page) => page.messages[0]?.metadata?.seq !== 501);
    expect(gapsOf(without)).toEqual([
      { sessionNumber: 1, fromSeq: 1, toSeq: 450, count: 450, loadedBelow: true },
      { sessionNumber: 1, fromSeq: 501, toSeq: 600, count: 100, loadedBelow: true },
    ]);
  });
});

describe("keepNear", () => {
  const page = (from: number, to: number): LoadedPage => ({
    messages: range(from, to),
    covers: [{ from, to }],
  });

  it("never lets go of the page just added, and drops no more than the bound needs", () => {
    const pages = [page(1, 100), page(101, 200), page(851, 950)];
    const { kept, dropped } = keepNear(pages, page(401, 500), 250);
    expect(dropped.map((p) => p.covers[0]?.from)).toEqual([851, 1]);
    expect(kept.map((p) => p.covers[0]?.from)).toEqual([101, 401]);
  });

  it("keeps all pages at the bound", () => {
    const { kept, dropped } = keepNear([page(1, 100)], page(101, 200), 200);
    expect(dropped).toEqual([]);
    expect(kept).toHaveLength(2);
  });
});
