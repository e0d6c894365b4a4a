// The one flat list the virtualized message list renders (docs/message-list.md): messages,
// synthetic session dividers and compaction markers, built so a live thread and its reload
// produce the same rows. The rows are in list-items.ts, the order in message-order.ts, what the
// messages say about sessions in session-scan.ts, a message split across sessions in
// message-segments.ts and the placeholders for unloaded messages in message-gaps.ts.
import type { AgentRef, ChatMessage, SessionSummary } from "@/lib/chat/types";
import { stretchWriters, ThreadAgents } from "./format-agents";
import type { ListItem, MessageItem } from "./list-items";
import { DEFAULT_CHUNK_SIZE, type MessageGap, withPlaceholders } from "./message-gaps";
import { orderMessages } from "./message-order";
import { hasContent, messageSegments, needsSegments } from "./message-segments";
import { ownSession, scanResets } from "./session-scan";

// The rows, the order and the paging helpers, where the list's callers import them from.
export type {
  CompactionItem,
  FailedResetState,
  ListItem,
  LiveResetState,
  MessageItem,
  PlaceholderItem,
  SessionDividerItem,
} from "./list-items";
export { type MessageGap, mergeSeqRanges, messageGaps, type SeqRange } from "./message-gaps";
export { inThreadOrder } from "./message-order";

export interface FormattedMessages {
  items: ListItem[];
  /**
   * Session number → index of its first row: its divider, or 0 for session 1. Only sessions
   * with a row are listed (an empty list has none); live placeholders are not sessions yet.
   */
  sessionStartIndex: Record<number, number>;
  /**
   * Session number → its agent, for the sessions with a row, in a thread that has any agent
   * besides the built-in Default; empty otherwise (such a thread names no agents).
   */
  sessionAgents: Record<number, AgentRef>;
}

export interface FormatMessagesOptions {
  /** Unloaded ranges to stand in for with placeholder rows, so the list spans the thread. */
  gaps?: MessageGap[];
  /** Messages one placeholder row stands for at most. */
  chunkSize?: number;
}

interface SessionRows {
  /**
   * The session's rows in thread order. Messages a committed reset moved here take their place
   * in that order too, so every answer stays directly under its question.
   */
  rows: ListItem[];
}

/**
 * Builds the message list. Each message belongs to its `metadata.sessionId`; one without belongs
 * to the session of the stored message it was sent before (its reply), else (live) to the latest
 * session started at its point in the list. A live assistant message that
 * carries a committed reset is split there, so its rows match what the server stores: the reply
 * so far in session N, the divider, then session N+1 in thread order — the moved user messages
 * each followed by its answer.
 * Sessions are laid out in number order, each behind a divider from session 2 on, including
 * sessions with no messages. O(messages + parts) when messages arrive in seq order.
 */
export function formatMessages(
  messages: ChatMessage[],
  sessions: SessionSummary[],
  options: FormatMessagesOptions = {},
): FormattedMessages {
  const { messages: ordered, anchors, liveTailStart } = orderMessages(messages);
  const { registry, movedTo, startedInList, agentHandoffs } = scanResets(ordered, sessions);
  /** Rows of replies an agent handed over midway: who wrote each (see `stretchWriters`). */
  const rowWriters = new Map<ListItem, AgentRef>();

  const bySession = new Map<number, SessionRows>();
  const rowsOf = (number: number): SessionRows => {
    let rows = bySession.get(number);
    if (!rows) {
      rows = { rows: [] };
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
    const firstRows = rowsOf(first).rows;
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
      const target = i === 0 ? firstRows : rowsOf(s.session).rows;
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

  const gapsBySession = new Map<number, MessageGap[]>();
  for (const gap of options.gaps ?? []) {
    if (gap.count <= 0) continue;
    rowsOf(gap.sessionNumber);
    const list = gapsBySession.get(gap.sessionNumber);
    if (list) list.push(gap);
    else gapsBySession.set(gap.sessionNumber, [gap]);
  }
  const chunkSize = Math.max(1, options.chunkSize ?? DEFAULT_CHUNK_SIZE);

  const agents = new ThreadAgents(registry.byNumber, ordered, agentHandoffs);
  const sessionAgents: Record<number, AgentRef> = {};
  const attributed = (item: ListItem): ListItem => {
    if (!agents.shown || item.kind !== "message") return item;
    const agent = rowWriters.get(item) ?? agents.writer(item.message, item.sessionNumber);
    if (agent) item.agent = agent;
    return item;
  };

  const items: ListItem[] = [];
  const sessionStartIndex: Record<number, number> = {};
  const numbers = [...bySession.keys()].sort((a, b) => a - b);
  for (const number of numbers) {
    const rows = bySession.get(number);
    if (!rows) continue;
    const gaps = gapsBySession.get(number);
    if (gaps) rows.rows = withPlaceholders(rows.rows, gaps, chunkSize);
    const agent = agents.shown ? agents.session(number) : undefined;
    if (agent) sessionAgents[number] = agent;
    // Session 1 has a divider only when it starts from a stored handoff (a continued thread).
    if (number >= 2 || opensFromHandoff(registry.get(number))) {
      sessionStartIndex[number] = items.length;
      const agentHandoff = agents.handoff(number);
      items.push({
        kind: "session_divider",
        key: `session:${number}`,
        sessionNumber: number,
        session: registry.get(number),
        ...(agentHandoff ? { agentHandoff } : {}),
      });
    }
    // Every turn past the threshold may fail the same way: the latest failure speaks for them.
    const lastFailed = rows.rows.findLast((item) => item.kind === "session_divider" && item.failed);
    for (const item of rows.rows) {
      if (item.kind === "session_divider" && item.failed && item !== lastFailed) continue;
      items.push(attributed(item));
    }
  }
  if (bySession.has(1) && items.length > 0) sessionStartIndex[1] = 0;
  return { items, sessionStartIndex, sessionAgents };
}

function opensFromHandoff(session: SessionSummary): boolean {
  return session.trigger === "continuation" && session.handoff !== null;
}
