// The one flat list the virtualized message list renders (docs/message-list.md): messages,
// synthetic session dividers and compaction markers, built so a live thread and its reload
// produce the same rows.
import type {
  AgentHandoffPart,
  AgentRef,
  ChatMessage,
  ContextResetEvent,
  HandoffView,
  SessionPart,
  SessionSummary,
} from "@/lib/chat/types";
import { type DividerHandoff, stretchWriters, ThreadAgents } from "./format-agents";
import { DEFAULT_CHUNK_SIZE, type MessageGap, withPlaceholders } from "./message-gaps";

// The paging helpers, where the list's callers import them from.
export { type MessageGap, mergeSeqRanges, messageGaps, type SeqRange } from "./message-gaps";

export interface MessageItem {
  kind: "message";
  /** The message id, or `<id>:s<N>` for the part of a live message that runs in session N. */
  key: string;
  /** The original message, or a copy holding only the parts of one session (same `id`). */
  message: ChatMessage;
  sessionNumber: number;
  /** Who wrote an assistant row; set only in a thread that shows agents (see `sessionAgents`). */
  agent?: AgentRef;
}

/** A reset that has started but not committed: the divider is a placeholder until it does. */
export interface LiveResetState {
  event: Extract<ContextResetEvent, "reset_starting" | "input_blocked">;
  fromSessionId?: string;
  utilization?: number;
  threshold?: number;
}

export interface FailedResetState {
  reason: string;
  pins: string[];
}

export interface SessionDividerItem {
  kind: "session_divider";
  /** `session:<N>`; a live placeholder uses its future session's key so the row stays mounted. */
  key: string;
  sessionNumber: number;
  /**
   * The session from `sessions`, else synthesized from the stream's parts. While `live` is set it
   * is provisional: only `number` is meaningful (no id, handoff or start time exists yet).
   */
  session: SessionSummary;
  live?: LiveResetState;
  /**
   * A reset that failed because the items a brief never drops exceed its bound: the row stands in
   * session N (`sessionNumber`), where the conversation goes on, and lists the pins.
   */
  failed?: FailedResetState;
  /** For a session one agent handed to another: who handed it to whom, and why. */
  agentHandoff?: DividerHandoff;
}

export interface CompactionItem {
  kind: "compaction";
  key: string;
  tokensBefore: number;
  tokensAfter: number;
  sessionNumber: number;
}

/**
 * Messages of the thread that are not loaded yet, standing in for up to `chunkSize` of them so
 * the list holds the whole thread's extent. Its seq bounds say which page to fetch.
 */
export interface PlaceholderItem {
  kind: "placeholder";
  /** `gap:<fromSeq>`: stable while the range it stands for is unloaded. */
  key: string;
  sessionNumber: number;
  /** How many messages this row stands for (an estimate when a session has several gaps). */
  count: number;
  /** Estimated seq bounds of those messages (inclusive). */
  fromSeq: number;
  toSeq: number;
  /** True when the message right below this row is loaded: fetch upward with `beforeSeq`. */
  loadedBelow: boolean;
}

export type ListItem = MessageItem | SessionDividerItem | CompactionItem | PlaceholderItem;

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

type Part = ChatMessage["parts"][number];

/** Parts that carry no visible content of their own; a message half made only of these is empty. */
const NON_CONTENT_PARTS: ReadonlySet<string> = new Set([
  "step-start",
  "data-session",
  "data-context",
  "data-queued",
  "data-context-reset",
  // Rendered as its own compaction row.
  "data-compaction",
  // Rendered as the divider of the session it started.
  "data-agent-handoff",
]);

/** Where a live message crosses into a new session: a committed reset or an agent handoff. */
interface SessionBoundary {
  number: number;
  oldSessionId?: string;
  newSessionId?: string;
  handoff?: HandoffView;
  movedMessageIds: string[];
  /** Set when an agent handed the run to another. */
  agentHandoff?: AgentHandoffPart;
}

function sessionBoundary(part: Part | undefined): SessionBoundary | null {
  if (part?.type === "data-agent-handoff") {
    const { sessionNumber, oldSessionId, newSessionId, handoff, movedMessageIds } = part.data;
    return {
      number: sessionNumber,
      oldSessionId,
      newSessionId,
      handoff,
      movedMessageIds: movedMessageIds ?? [],
      agentHandoff: part.data,
    };
  }
  if (part?.type !== "data-context-reset" || part.data.event !== "reset_complete") return null;
  // A completed reset without its session number cannot be placed; it stays inside its message.
  const { sessionNumber, oldSessionId, newSessionId, handoff, movedMessageIds } = part.data;
  if (sessionNumber === undefined) return null;
  return {
    number: sessionNumber,
    oldSessionId,
    newSessionId,
    handoff,
    movedMessageIds: movedMessageIds ?? [],
  };
}

/** Known sessions by number, from the thread API and, for live threads, from stream parts. */
class SessionRegistry {
  readonly byNumber = new Map<number, SessionSummary>();
  private readonly numberById = new Map<string, number>();

  add(session: SessionSummary): void {
    if (this.byNumber.has(session.number)) return;
    this.byNumber.set(session.number, session);
    if (session.id) this.numberById.set(session.id, session.number);
  }

  replace(session: SessionSummary): void {
    this.byNumber.set(session.number, session);
  }

  numberOf(id: string | undefined): number | undefined {
    return id === undefined ? undefined : this.numberById.get(id);
  }

  get(number: number): SessionSummary {
    return this.byNumber.get(number) ?? synthesizeSession({ number });
  }
}

function synthesizeSession(
  fields: Partial<SessionSummary> & Pick<SessionSummary, "number">,
): SessionSummary {
  return {
    id: "",
    model: "",
    profile: "",
    trigger: "threshold",
    startedAt: "",
    endedAt: null,
    firstSeq: null,
    messageCount: 0,
    handoff: null,
    ...fields,
  };
}

interface OrderedMessages {
  messages: ChatMessage[];
  /** A message without a seq → the stored message that followed it in the input (its reply). */
  anchors: Map<string, ChatMessage>;
  /** Where the trailing run of messages without a seq (the live tail) begins. */
  liveTailStart: number;
}

/**
 * Messages in seq order. A message without a seq (optimistic, or a user message whose seq the
 * stream never reports) keeps its place: right before the message with a seq that followed it
 * in the input — usually the reply that answered it — or, at the end of the input, in arrival
 * order. The thread API already returns seq order, so sorting is skipped unless needed. A
 * repeated id keeps its first occurrence: keys must stay unique.
 */
function orderMessages(messages: ChatMessage[]): OrderedMessages {
  const seen = new Set<string>();
  const groups: { seq: number; message: ChatMessage; before: ChatMessage[] | null }[] = [];
  const anchors = new Map<string, ChatMessage>();
  let pending: ChatMessage[] = [];
  let inOrder = true;
  let lastSeq = Number.NEGATIVE_INFINITY;
  for (const message of messages) {
    if (seen.has(message.id)) continue;
    seen.add(message.id);
    const seq = message.metadata?.seq;
    if (seq === undefined) {
      pending.push(message);
      continue;
    }
    if (seq < lastSeq) inOrder = false;
    lastSeq = seq;
    for (const waiting of pending) anchors.set(waiting.id, message);
    groups.push({ seq, message, before: pending.length > 0 ? pending : null });
    if (pending.length > 0) pending = [];
  }
  if (!inOrder) groups.sort((a, b) => a.seq - b.seq);
  const ordered: ChatMessage[] = [];
  for (const group of groups) {
    if (group.before) for (const message of group.before) ordered.push(message);
    ordered.push(group.message);
  }
  const liveTailStart = ordered.length;
  for (const message of pending) ordered.push(message);
  return { messages: ordered, anchors, liveTailStart };
}

interface ResetScan {
  registry: SessionRegistry;
  /** Message id → the session number a committed reset moved it into. */
  movedTo: Map<string, number>;
  /** Session numbers started by a completed reset or an agent handoff found in the list. */
  startedInList: Set<number>;
  /** Session number → the live agent handoff that started it. */
  agentHandoffs: Map<number, AgentHandoffPart>;
}

/**
 * One pass over every part: what committed resets, agent handoffs and `data-session` parts say
 * about sessions.
 */
function scanResets(messages: ChatMessage[], sessions: SessionSummary[]): ResetScan {
  const registry = new SessionRegistry();
  for (const session of sessions) registry.add(session);

  const movedTo = new Map<string, number>();
  const startedInList = new Set<number>();
  const boundaries = new Map<number, SessionBoundary>();
  const agentHandoffs = new Map<number, AgentHandoffPart>();
  const sessionParts = new Map<string, SessionPart>();
  /** The latest user message so far in the list that the server has not placed yet. */
  let lastUser: string | undefined;
  for (const message of messages) {
    if (message.role === "user") {
      lastUser = message.metadata?.sessionId === undefined ? message.id : undefined;
    }
    for (const part of message.parts) {
      if (part.type === "data-session") {
        if (!sessionParts.has(part.data.id)) sessionParts.set(part.data.id, part.data);
        continue;
      }
      const boundary = sessionBoundary(part);
      if (!boundary) continue;
      startedInList.add(boundary.number);
      if (!boundaries.has(boundary.number)) boundaries.set(boundary.number, boundary);
      if (boundary.agentHandoff && !agentHandoffs.has(boundary.number)) {
        agentHandoffs.set(boundary.number, boundary.agentHandoff);
      }
      // The target's session holds the request it answers: the server moves it there. A part
      // that does not list what moved means the user message the reply sits under, if the
      // list has it only as sent (a stored one already sits in its session).
      const moved =
        boundary.agentHandoff && !boundary.agentHandoff.movedMessageIds && lastUser
          ? [lastUser]
          : boundary.movedMessageIds;
      for (const id of moved) movedTo.set(id, boundary.number);
    }
  }

  for (const [number, data] of boundaries) {
    const known = registry.byNumber.get(number);
    if (known) {
      // `sessions` may predate the handoff being attached; the stream's copy is newer.
      if (!known.handoff && data.handoff) registry.replace({ ...known, handoff: data.handoff });
      continue;
    }
    const announced = data.newSessionId ? sessionParts.get(data.newSessionId) : undefined;
    const previous = registry.byNumber.get(registry.numberOf(data.oldSessionId) ?? number - 1);
    const target = data.agentHandoff?.to;
    registry.add(
      synthesizeSession({
        number,
        id: data.newSessionId ?? "",
        model: announced?.model ?? previous?.model ?? "",
        // An agent handoff gives the session to its target; a reset keeps the agent.
        profile: announced?.profile ?? target?.id ?? previous?.profile ?? "",
        trigger: announced?.trigger ?? (target ? "agent_handoff" : "threshold"),
        startedAt: announced?.startedAt ?? data.handoff?.createdAt ?? "",
        handoff: data.handoff ?? null,
        ...(target ? { agent: target } : previous?.agent ? { agent: previous.agent } : {}),
      }),
    );
  }
  for (const announced of sessionParts.values()) {
    if (registry.numberOf(announced.id) !== undefined) continue;
    const { id, number, model, profile, trigger, startedAt } = announced;
    registry.add(synthesizeSession({ id, number, model, profile, trigger, startedAt }));
  }
  return { registry, movedTo, startedInList, agentHandoffs };
}

/**
 * The session a message's first part runs in, from what the message itself says: the session a
 * reset or agent handoff it carries started from (most specific: the server may stamp either
 * session in metadata), its metadata, or the `data-session` part a turn starts with.
 */
function ownSession(message: ChatMessage, registry: SessionRegistry): number | undefined {
  let announced: number | undefined;
  for (const part of message.parts) {
    if (part.type === "data-agent-handoff") {
      const from = registry.numberOf(part.data.oldSessionId);
      if (from !== undefined) return from;
      break;
    }
    if (part.type === "data-context-reset") {
      // Part ids are `reset-<fromSessionId>` (docs/streams.md): that covers events sent without
      // oldSessionId.
      const fromId =
        part.data.oldSessionId ?? (part.id?.startsWith("reset-") ? part.id.slice(6) : undefined);
      const from = registry.numberOf(fromId);
      if (from !== undefined) return from;
      break;
    }
    if (part.type === "data-session" && announced === undefined) {
      announced = registry.numberOf(part.data.id);
    }
  }
  return registry.numberOf(message.metadata?.sessionId) ?? announced;
}

/** The parts [from, to) of a message that ran in one session, with the rows around them. */
interface Segment {
  session: number;
  from: number;
  to: number;
  before: ListItem[];
  after: ListItem[];
  /** The agent handoff that opened this segment, if one did. */
  openedBy?: AgentHandoffPart;
}

interface SessionRows {
  /**
   * The session's rows in thread order. Messages a committed reset moved here take their place
   * in that order too, so every answer stays directly under its question.
   */
  rows: ListItem[];
}

function hasContent(parts: Part[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const part = parts[i];
    if (part && !NON_CONTENT_PARTS.has(part.type)) return true;
  }
  return false;
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
    let needsWalk = false;
    for (const part of parts) {
      if (
        part.type === "data-context-reset" ||
        part.type === "data-compaction" ||
        part.type === "data-agent-handoff"
      ) {
        needsWalk = true;
        break;
      }
    }
    const firstRows = rowsOf(first).rows;
    if (moved === undefined) current = Math.max(current, first);
    if (!needsWalk) {
      firstRows.push({ kind: "message", key: message.id, message, sessionNumber: first });
      continue;
    }

    const segments: Segment[] = [];
    let segment: Segment = { session: first, from: 0, to: parts.length, before: [], after: [] };
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      if (part?.type === "data-compaction") {
        segment.before.push({
          kind: "compaction",
          key: `compaction:${message.id}:${part.id ?? i}`,
          tokensBefore: part.data.tokensBefore,
          tokensAfter: part.data.tokensAfter,
          sessionNumber: segment.session,
        });
        continue;
      }
      const boundary = sessionBoundary(part);
      if (boundary && boundary.number !== segment.session) {
        segment.to = i;
        segments.push(segment);
        segment = {
          session: boundary.number,
          from: i + 1,
          to: parts.length,
          before: [],
          after: [],
          ...(boundary.agentHandoff ? { openedBy: boundary.agentHandoff } : {}),
        };
        continue;
      }
      if (part?.type !== "data-context-reset") continue;
      const { event } = part.data;
      if (event === "reset_failed" && part.data.code === "brief_too_large") {
        segment.after.push({
          kind: "session_divider",
          key: `reset-failed:${message.id}:${part.id ?? i}`,
          sessionNumber: segment.session,
          session: synthesizeSession({ number: segment.session, handoff: null }),
          failed: { reason: part.data.reason ?? "", pins: part.data.pins ?? [] },
        });
        continue;
      }
      const upcoming = segment.session + 1;
      // Once session N+1 is known the reset committed, whatever this stale part still says.
      if (
        (event === "reset_starting" || event === "input_blocked") &&
        !registry.byNumber.has(upcoming) &&
        !placeholders.has(upcoming)
      ) {
        placeholders.add(upcoming);
        const { oldSessionId, utilization, threshold } = part.data;
        segment.after.push({
          kind: "session_divider",
          key: `session:${upcoming}`,
          sessionNumber: upcoming,
          session: synthesizeSession({ number: upcoming, handoff: null }),
          live: { event, fromSessionId: oldSessionId, utilization, threshold },
        });
      }
    }
    segments.push(segment);

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

/**
 * Messages in the order the list shows them (see `orderMessages`), for callers that keep a
 * message array whose last element must be the thread's latest message.
 */
export function inThreadOrder(messages: ChatMessage[]): ChatMessage[] {
  return orderMessages(messages).messages;
}
