// The one flat list the virtualized message list renders (docs/message-list.md): messages,
// synthetic session dividers and compaction markers, built so a live thread and its reload
// produce the same rows. The rows are in list-items.ts, the order in message-order.ts, what the
// messages say about sessions in session-scan.ts, a message split across sessions in
// message-segments.ts and the placeholders for unloaded messages in message-gaps.ts.
import type { AgentRef, ChatMessage, SessionSummary } from "@/lib/chat/types";
import { ThreadAgents } from "./format-agents";
import type { ListItem, MessageItem } from "./list-items";
import {
  DEFAULT_CHUNK_SIZE,
  type MessageGap,
  placeGaps,
  type RowMap,
  rowSeqs,
  type SeqRun,
} from "./message-gaps";
import { orderMessages } from "./message-order";
import { buildSessionRows } from "./session-rows";
import { type SessionRegistry, scanResets } from "./session-scan";

// The rows, the order and the paging helpers, where the list's callers import them from.
export type {
  FailedResetState,
  ListItem,
  PlaceholderItem,
  SessionDividerItem,
} from "./list-items";
export { mergeSeqRanges, messageGaps, type SeqRange } from "./message-gaps";
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
  const order = orderMessages(messages);
  const scan = scanResets(order.messages, sessions);
  const { bySession, rowWriters } = buildSessionRows(order, scan, sessions);
  const agents = new ThreadAgents(scan.registry.byNumber, order.messages, scan.agentHandoffs);
  const runs = new Map<number, SessionRuns>();
  for (const [number, rows] of bySession) {
    runs.set(number, { before: [], rows: { rows, seqs: rowSeqs(rows), ascending: false } });
  }
  return assembleList(runs, { registry: scan.registry, agents, rowWriters, ...options });
}

/** A session's rows: runs of stored pages above, then the rows the full pass built. */
export interface SessionRuns {
  /** Stored pages' runs, in seq order, all above `rows`. */
  before: SeqRun[];
  rows: SeqRun;
}

export interface Assembly extends FormatMessagesOptions {
  registry: SessionRegistry;
  agents: ThreadAgents;
  rowWriters: ReadonlyMap<ListItem, AgentRef>;
}

/**
 * The list from each session's rows: sessions in number order, each behind its divider, with
 * placeholders for the unloaded ranges and every reply labelled by its writer in a thread that
 * shows agents. Rows of stored pages are copied (labelled copies when agents are shown), never
 * changed, so they can be kept between calls.
 */
export function assembleList(
  runs: Map<number, SessionRuns>,
  { registry, agents, rowWriters, gaps: allGaps, chunkSize: chunk }: Assembly,
): FormattedMessages {
  const gapsBySession = new Map<number, MessageGap[]>();
  for (const gap of allGaps ?? []) {
    if (gap.count <= 0) continue;
    if (!runs.has(gap.sessionNumber)) runs.set(gap.sessionNumber, { before: [], rows: EMPTY_RUN });
    const list = gapsBySession.get(gap.sessionNumber);
    if (list) list.push(gap);
    else gapsBySession.set(gap.sessionNumber, [gap]);
  }
  const chunkSize = Math.max(1, chunk ?? DEFAULT_CHUNK_SIZE);

  const sessionAgents: Record<number, AgentRef> = {};
  const writerOf = (item: MessageItem) =>
    rowWriters.get(item) ?? agents.writer(item.message, item.sessionNumber);
  const labelCopy: RowMap = (item) => {
    if (item.kind !== "message") return item;
    const agent = writerOf(item);
    return agent ? { ...item, agent } : item;
  };

  const items: ListItem[] = [];
  const sessionStartIndex: Record<number, number> = {};
  const numbers = [...runs.keys()].sort((a, b) => a - b);
  for (const number of numbers) {
    const session = runs.get(number);
    if (!session) continue;
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
    const rows = session.rows.rows;
    const lastFailed = rows.findLast((item) => item.kind === "session_divider" && item.failed);
    const ownRow: RowMap = (item) => {
      if (item.kind === "session_divider" && item.failed && item !== lastFailed) return null;
      if (agents.shown && item.kind === "message") {
        const writer = writerOf(item);
        if (writer) item.agent = writer;
      }
      return item;
    };
    const pageMap = agents.shown ? labelCopy : undefined;
    placeGaps(
      session.before.length > 0 ? [...session.before, session.rows] : [session.rows],
      gapsBySession.get(number) ?? [],
      chunkSize,
      items,
      (run) => (run === session.rows ? ownRow : pageMap),
    );
  }
  if (runs.has(1) && items.length > 0) sessionStartIndex[1] = 0;
  return { items, sessionStartIndex, sessionAgents };
}

const EMPTY_RUN: SeqRun = { rows: [], seqs: [], ascending: true };

function opensFromHandoff(session: SessionSummary): boolean {
  return session.trigger === "continuation" && session.handoff !== null;
}
