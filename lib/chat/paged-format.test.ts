import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatMessage, MessageMetadata, SessionSummary } from "@/lib/chat/types";
import { emptyArtifact } from "@/lib/handoff/artifact";
import { formatMessages, type ListItem, messageGaps, type SeqRange } from "./format-messages";
import { type MessageGap, placeGaps } from "./message-gaps";
import { PagedFormatter } from "./paged-format";

type Part = ChatMessage["parts"][number];

const sid = (number: number) => `s${number}`;
const EDITOR = { id: "editor", name: "Editor" };

function session(number: number, firstSeq: number | null, messageCount: number): SessionSummary {
  return {
    id: sid(number),
    number,
    model: "baton/local",
    profile: "default",
    trigger: number === 1 ? "initial" : "threshold",
    startedAt: "2025-01-01T00:00:00.000Z",
    endedAt: null,
    firstSeq,
    messageCount,
    handoff:
      number === 1
        ? null
        : {
            key: "thread-1",
            revision: number - 1,
            id: `h${number}`,
            sessionNumber: number,
            artifact: emptyArtifact("ship it", "state"),
            markdown: "# Handoff",
            createdAt: "2025-01-01T00:00:00.000Z",
            redactions: [],
          },
  };
}

interface Shape {
  /** Per stored message: does it start a new session, is it compacted, does it name Editor. */
  messages: { next: boolean; compaction: boolean; editor: boolean; skip: boolean }[];
  /** How many of the newest stored messages the newest page holds. */
  newest: number;
  /** Where the older pages start and end (indexes into the older messages), and their order. */
  cuts: number[];
  dropped: number[];
  order: number[];
  /** Live messages after the stored ones: an optimistic question, a reply starting a reset. */
  optimistic: boolean;
  live: null | "starting" | "complete";
  /** A stored page that says something about sessions, which only the full pass handles. */
  sessionPartAt: number | null;
  emptySession: boolean;
}

const shape = fc.record<Shape>({
  messages: fc.array(
    fc.record({
      next: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
      compaction: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
      editor: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
      skip: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    }),
    { minLength: 1, maxLength: 90 },
  ),
  newest: fc.integer({ min: 0, max: 30 }),
  cuts: fc.array(fc.nat({ max: 90 }), { maxLength: 8 }),
  dropped: fc.array(fc.nat({ max: 8 }), { maxLength: 3 }),
  order: fc.array(fc.nat(), { minLength: 9, maxLength: 9 }),
  optimistic: fc.boolean(),
  live: fc.constantFrom(null, "starting", "complete"),
  sessionPartAt: fc.option(fc.nat({ max: 90 }), { nil: null }),
  emptySession: fc.boolean(),
});

/** A stored thread cut into the newest page, older pages (some missing) and a live tail. */
function build(s: Shape) {
  const stored: ChatMessage[] = [];
  let number = 1;
  let seq = 0;
  for (const [i, m] of s.messages.entries()) {
    if (m.next && i > 0) number++;
    seq += m.skip ? 3 : 1;
    const role = i % 2 === 0 ? "user" : "assistant";
    const metadata: MessageMetadata = { seq, sessionId: sid(number), status: "complete" };
    if (role === "assistant" && m.editor) metadata.agent = EDITOR;
    const parts: Part[] = [{ type: "text", text: `m${i}` }];
    if (m.compaction) {
      parts.unshift({
        type: "data-compaction",
        id: `c${i}`,
        data: { tokensBefore: 9, tokensAfter: 1 },
      });
    }
    if (s.sessionPartAt === i) {
      parts.unshift({
        type: "data-session",
        id: "session",
        data: {
          id: sid(number),
          number,
          model: "m",
          profile: "default",
          trigger: "threshold",
          startedAt: "",
        },
      });
    }
    stored.push({ id: `m${i}`, role, parts, metadata });
  }
  const sessionCount = number + (s.emptySession ? 1 : 0);
  const sessions = Array.from({ length: sessionCount }, (_, k) => {
    const own = stored.filter((m) => m.metadata?.sessionId === sid(k + 1));
    return session(k + 1, own[0]?.metadata?.seq ?? null, own.length);
  });

  const newestFrom = Math.max(0, stored.length - s.newest);
  const rest = stored.slice(newestFrom);
  const covered: SeqRange[] = [];
  const firstRest = rest[0]?.metadata?.seq;
  if (firstRest !== undefined)
    covered.push({ from: newestFrom === 0 ? 1 : firstRest, to: Infinity });
  const lastStored = stored.at(-1)?.metadata?.seq ?? 0;
  if (s.optimistic)
    rest.push({ id: "optimistic", role: "user", parts: [{ type: "text", text: "hi" }] });
  if (s.live) {
    const parts: Part[] = [{ type: "text", text: "so far" }];
    parts.push({
      type: "data-context-reset",
      id: `reset-${sid(number)}`,
      data:
        s.live === "starting"
          ? { event: "reset_starting" }
          : {
              event: "reset_complete",
              oldSessionId: sid(number),
              newSessionId: sid(number + 1),
              sessionNumber: number + 1,
              // Moves a stored question: one in an older page sends the list to the full pass.
              movedMessageIds: [stored[Math.floor(stored.length / 2)]?.id ?? "m0"],
            },
    });
    parts.push({ type: "text", text: "after" });
    rest.push({ id: "live", role: "assistant", parts, metadata: { seq: lastStored + 1 } });
  }

  const older = stored.slice(0, newestFrom);
  const bounds = [...new Set([0, ...s.cuts.filter((c) => c < older.length), older.length])].sort(
    (a, b) => a - b,
  );
  let pages: ChatMessage[][] = [];
  for (let k = 1; k < bounds.length; k++) pages.push(older.slice(bounds[k - 1], bounds[k]));
  pages = pages.filter((_, k) => !s.dropped.includes(k));
  for (const page of pages) {
    const first = page[0]?.metadata?.seq ?? 1;
    const last = page.at(-1)?.metadata?.seq ?? first;
    covered.push({ from: page[0] === stored[0] ? 1 : first, to: last });
  }
  const ordered = pages
    .map((page, k) => ({ page, key: s.order[k] ?? k }))
    .sort((a, b) => a.key - b.key)
    .map((p) => p.page);
  return { pages: ordered, rest, sessions, covered };
}

function full(
  pages: ChatMessage[][],
  rest: ChatMessage[],
  sessions: SessionSummary[],
  covered: SeqRange[],
) {
  const all = [...pages.flat(), ...rest];
  return formatMessages(all, sessions, { gaps: messageGaps({ sessions, messages: all, covered }) });
}

describe("PagedFormatter", () => {
  it("gives the rows formatMessages gives for all the messages at once", () => {
    fc.assert(
      fc.property(shape, (s) => {
        const { pages, rest, sessions, covered } = build(s);
        const paged = new PagedFormatter().format({ pages, rest, sessions, covered });
        expect(paged).toEqual(full(pages, rest, sessions, covered));
      }),
      { numRuns: 400 },
    );
  });

  it("stays equal as pages arrive one by one, in any order, with kept rows reused", () => {
    fc.assert(
      fc.property(shape, (s) => {
        const { pages, rest, sessions, covered } = build(s);
        const formatter = new PagedFormatter();
        for (let k = 0; k <= pages.length; k++) {
          const loaded = pages.slice(0, k);
          const reached = covered.slice(0, 1 + k);
          const paged = formatter.format({ pages: loaded, rest, sessions, covered: reached });
          expect(paged).toEqual(full(loaded, rest, sessions, reached));
        }
      }),
      { numRuns: 200 },
    );
  });

  it("keeps a page's rows between calls instead of rebuilding them", () => {
    const sessions = [session(1, 1, 300)];
    const messages: ChatMessage[] = Array.from({ length: 300 }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 ? "assistant" : "user",
      parts: [{ type: "text", text: `m${i}` }],
      metadata: { seq: i + 1, sessionId: sid(1) },
    }));
    const older = messages.slice(0, 100);
    const middle = messages.slice(100, 200);
    const rest = messages.slice(200);
    const formatter = new PagedFormatter();
    const covered = [
      { from: 201, to: Infinity },
      { from: 101, to: 200 },
    ];
    const first = formatter.format({ pages: [middle], rest, sessions, covered });
    const second = formatter.format({
      pages: [middle, older],
      rest,
      sessions,
      covered: [...covered, { from: 1, to: 100 }],
    });
    const row = (items: typeof first.items, id: string) => items.find((item) => item.key === id);
    // The middle page's row is the same object: it was not built again.
    expect(row(second.items, "m150")).toBe(row(first.items, "m150"));
    expect(second.items.filter((item) => item.kind === "placeholder")).toEqual([]);
    expect(second.items.map((item) => item.key)).toEqual(messages.map((m) => m.id));
  });
});

describe("placeGaps", () => {
  it("places gaps inside an ascending run as a row-by-row scan does", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 200 }), { maxLength: 40 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 200 }), { maxLength: 6 }),
        (rowSeqList, gapStarts) => {
          const seqs = [...rowSeqList].sort((a, b) => a - b);
          const rows: ListItem[] = seqs.map((seq) => ({
            kind: "message",
            key: `m${seq}`,
            sessionNumber: 1,
            message: { id: `m${seq}`, role: "user", parts: [], metadata: { seq } },
          }));
          const taken = new Set(seqs);
          const gaps: MessageGap[] = gapStarts
            .filter((from) => !taken.has(from))
            .map((from) => ({
              sessionNumber: 1,
              fromSeq: from,
              toSeq: from,
              count: 1,
              loadedBelow: false,
            }));
          const scanned: ListItem[] = [];
          const searched: ListItem[] = [];
          placeGaps([{ rows, seqs, ascending: false }], gaps, 100, scanned);
          placeGaps([{ rows, seqs, ascending: true }], gaps, 100, searched);
          expect(searched).toEqual(scanned);
          // Each placeholder sits right above the first row after it.
          for (const [i, item] of searched.entries()) {
            if (item.kind !== "placeholder") continue;
            const next = searched.slice(i + 1).find((row) => row.kind === "message");
            if (next?.kind === "message") {
              expect(next.message.metadata?.seq ?? 0).toBeGreaterThan(item.toSeq);
            }
          }
        },
      ),
    );
  });
});
