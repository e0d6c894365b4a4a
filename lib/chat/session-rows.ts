// Row building for the message list (docs/message-list.md): each message's rows, put into the
// session they belong to. `formatMessages` runs it over the messages it formats; the paged
// formatter (paged-format.ts) runs it over the newest page and the live tail only, and builds the
// rows of an older stored page once (`storedPageRows`).
import type { AgentRef, ChatMessage, SessionSummary } from "@/lib/chat/types";
import { stretchWriters } from "./format-agents";
import type { ListItem, MessageItem } from "./list-items";
import type { SeqRun } from "./message-gaps";
import type { OrderedMessages } from "./message-order";
import { hasContent, messageSegments, needsSegments } from "./message-segments";
import { ownSession, type ResetScan, type SessionRegistry } from "./session-scan";

export interface SessionRows {
  /**
   * Session number → its rows in thread order. Messages a committed reset moved there take their
   * place in that order too, so every answer stays directly under its question.
   */
  bySession: Map<number, ListItem[]>;
  /** Rows of replies an agent handed over midway: who wrote each (see `stretchWriters`). */
  rowWriters: Map<ListItem, AgentRef>;
}

/**
 * Each message's rows, by session. A message belongs to its `metadata.sessionId`; one without to
 * the session of the stored message it was sent before (its reply), else (live) to the latest
 * session started at its point in the list, which starts at `startAt` (the latest session of
 * the rows above these, if any). A live assistant message that carries a committed reset is
 * split there. Every session of the registry gets an entry, with or without rows.
 */
export function buildSessionRows(
  { messages: ordered, anchors, liveTailStart }: OrderedMessages,
  { registry, movedTo, startedInList }: ResetScan,
  sessions: readonly SessionSummary[],
  startAt?: number,
): SessionRows {
  const rowWriters = new Map<ListItem, AgentRef>();
  const bySession = new Map<number, ListItem[]>();
  const rowsOf = (number: number): ListItem[] => {
    let rows = bySession.get(number);
    if (!rows) {
      rows = [];
      bySession.set(number, rows);
    }
    return rows;
  };
  for (const number of registry.byNumber.keys()) rowsOf(number);

  // Sessions in `sessions` that no reset in the list started began before the live tail, so an
  // unsent or streaming message belongs at least to the latest of them (e.g. after a manual reset).
  let startedBeforeLiveTail = Number.NEGATIVE_INFINITY;
  for (const session of sessions) {
    if (!startedInList.has(session.number)) {
      startedBeforeLiveTail = Math.max(startedBeforeLiveTail, session.number);
    }
  }
  let current = registry.byNumber.size > 0 ? Math.min(...registry.byNumber.keys()) : 1;
  if (startAt !== undefined) current = Math.max(current, startAt);
  let inLiveTail = false;
  const placeholders = new Set<number>();

  for (const [index, message] of ordered.entries()) {
    if (!inLiveTail && index >= liveTailStart) {
      inLiveTail = true;
      current = Math.max(current, startedBeforeLiveTail);
    }
    const moved = movedTo.get(message.id);
    const anchor = anchors.get(message.id);
    const first =
      moved ??
      ownSession(message, registry) ??
      (anchor ? ownSession(anchor, registry) : undefined) ??
      current;

    const parts = message.parts;
    const firstRows = rowsOf(first);
    if (moved === undefined) current = Math.max(current, first);
    if (!needsSegments(parts)) {
      firstRows.push({ kind: "message", key: message.id, message, sessionNumber: first });
      continue;
    }

    const segments = messageSegments(message, first, registry, placeholders);

    const split = segments.length > 1;
    const writers = split ? stretchWriters(segments.map((s) => s.openedBy)) : [];
    // A half with nothing to show is dropped, but a message always keeps one row: the last,
    // where a reply that has not streamed any text yet will appear.
    let keep = segments.map((s) => !split || hasContent(parts, s.from, s.to));
    if (!keep.includes(true)) keep = segments.map((_, i) => i === segments.length - 1);

    for (const [i, s] of segments.entries()) {
      const target = i === 0 ? firstRows : rowsOf(s.session);
      if (i > 0) current = Math.max(current, s.session);
      for (const item of s.before) target.push(item);
      if (keep[i]) {
        const row: MessageItem = {
          kind: "message",
          key: i === 0 ? message.id : `${message.id}:s${s.session}`,
          message: split ? { ...message, parts: parts.slice(s.from, s.to) } : message,
          sessionNumber: s.session,
        };
        const writer = writers[i];
        if (writer) rowWriters.set(row, writer);
        target.push(row);
      }
      for (const item of s.after) target.push(item);
    }
  }
  return { bySession, rowWriters };
}

/** One session's run of rows from a stored page, with the seq each row sorts by. */
interface PageRun extends SeqRun {
  sessionNumber: number;
  rows: ListItem[];
  /** The seq each row sorts by (its message's); ascending, but equal for a compaction marker. */
  seqs: number[];
}

/** A stored page's rows: what the paged formatter stitches between the rows around it. */
export interface StoredPageRows {
  /** Runs in seq order; consecutive runs are of different sessions. */
  runs: PageRun[];
  firstSeq: number;
  lastSeq: number;
  /** Its messages per stored session id, for the gap arithmetic. */
  loaded: Map<string, number>;
  /** The latest session a row of the page is in. */
  lastSession: number;
  /** The page's messages that name their writer, in order (agents are learned from them). */
  withAgents: ChatMessage[];
  ids: Set<string>;
}

/**
 * A stored page's rows, or null when the page cannot be formatted on its own: a message without a
 * seq or a known session, seqs out of order or repeated, or a part that says something about
 * sessions (a reset, an agent handoff, a session's start), which only the full pass handles.
 */
export function storedPageRows(
  page: readonly ChatMessage[],
  registry: SessionRegistry,
): StoredPageRows | null {
  const runs: PageRun[] = [];
  const loaded = new Map<string, number>();
  const withAgents: ChatMessage[] = [];
  const ids = new Set<string>();
  let lastSeq = Number.NEGATIVE_INFINITY;
  let lastSession = Number.NEGATIVE_INFINITY;
  const noPlaceholders = new Set<number>();
  for (const message of page) {
    const seq = message.metadata?.seq;
    const sessionId = message.metadata?.sessionId;
    const number = registry.numberOf(sessionId);
    if (seq === undefined || sessionId === undefined || number === undefined) return null;
    if (seq <= lastSeq || ids.has(message.id)) return null;
    for (const part of message.parts) {
      if (
        part.type === "data-context-reset" ||
        part.type === "data-agent-handoff" ||
        part.type === "data-session"
      ) {
        return null;
      }
    }
    lastSeq = seq;
    ids.add(message.id);
    loaded.set(sessionId, (loaded.get(sessionId) ?? 0) + 1);
    if (message.metadata?.agent) withAgents.push(message);
    lastSession = Math.max(lastSession, number);
    let run = runs.at(-1);
    if (run?.sessionNumber !== number) {
      run = { sessionNumber: number, rows: [], seqs: [], ascending: true };
      runs.push(run);
    }
    const rows = needsSegments(message.parts)
      ? messageSegments(message, number, registry, noPlaceholders).flatMap((s) => [
          ...s.before,
          { kind: "message" as const, key: message.id, message, sessionNumber: number },
          ...s.after,
        ])
      : [{ kind: "message" as const, key: message.id, message, sessionNumber: number }];
    for (const row of rows) {
      run.rows.push(row);
      run.seqs.push(seq);
    }
  }
  const firstSeq = page[0]?.metadata?.seq;
  if (firstSeq === undefined) return null;
  return { runs, firstSeq, lastSeq, loaded, lastSession, withAgents, ids };
}
