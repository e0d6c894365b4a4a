// The one flat list the virtualized message list renders (SPEC §8): messages, synthetic session
// dividers and compaction markers, built so a live thread and its reload produce the same rows.
import type {
  ChatMessage,
  ContextResetEvent,
  ContextResetPart,
  SessionPart,
  SessionSummary,
} from "@/lib/chat/types";

export interface MessageItem {
  kind: "message";
  /** The message id, or `<id>:s<N>` for the part of a live message that runs in session N. */
  key: string;
  /** The original message, or a copy holding only the parts of one session (same `id`). */
  message: ChatMessage;
  sessionNumber: number;
}

/** A reset that has started but not committed: the divider is a placeholder until it does. */
export interface LiveResetState {
  event: Extract<ContextResetEvent, "reset_starting" | "input_blocked">;
  fromSessionId?: string;
  utilization?: number;
  threshold?: number;
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
}

export interface CompactionItem {
  kind: "compaction";
  key: string;
  tokensBefore: number;
  tokensAfter: number;
  sessionNumber: number;
}

export type ListItem = MessageItem | SessionDividerItem | CompactionItem;

export interface FormattedMessages {
  items: ListItem[];
  /**
   * Session number → index of its first row: its divider, or 0 for session 1. Only sessions
   * with a row are listed (an empty list has none); live placeholders are not sessions yet.
   */
  sessionStartIndex: Record<number, number>;
}

export interface FormatMessagesOptions {
  /**
   * Total messages in the thread, for placeholder rows of unloaded pages. Not used yet: the list
   * is built from the loaded messages only.
   */
  totalCount?: number;
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
]);

interface CompletedReset {
  number: number;
  data: ContextResetPart;
}

function completedReset(part: Part): CompletedReset | null {
  if (part.type !== "data-context-reset" || part.data.event !== "reset_complete") return null;
  // A completed reset without its session number cannot be placed; it stays inside its message.
  const number = part.data.sessionNumber;
  return number === undefined ? null : { number, data: part.data };
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

/**
 * Seq'd messages in seq order, then messages without a seq (optimistic and streaming ones) in
 * arrival order. The thread API already returns seq order, so sorting is skipped unless needed.
 * A repeated id keeps its first occurrence: keys must stay unique.
 */
function orderMessages(messages: ChatMessage[]): ChatMessage[] {
  const seen = new Set<string>();
  const withSeq: ChatMessage[] = [];
  const withoutSeq: ChatMessage[] = [];
  let inOrder = true;
  let lastSeq = Number.NEGATIVE_INFINITY;
  for (const message of messages) {
    if (seen.has(message.id)) continue;
    seen.add(message.id);
    const seq = message.metadata?.seq;
    if (seq === undefined) {
      withoutSeq.push(message);
      continue;
    }
    if (seq < lastSeq) inOrder = false;
    lastSeq = seq;
    withSeq.push(message);
  }
  if (!inOrder) withSeq.sort((a, b) => (a.metadata?.seq ?? 0) - (b.metadata?.seq ?? 0));
  for (const message of withoutSeq) withSeq.push(message);
  return withSeq;
}

interface ResetScan {
  registry: SessionRegistry;
  /** Message id → the session number a committed reset moved it into. */
  movedTo: Map<string, number>;
  /** Session numbers started by a completed reset found in the list. */
  startedInList: Set<number>;
}

/** One pass over every part: what committed resets and `data-session` parts say about sessions. */
function scanResets(messages: ChatMessage[], sessions: SessionSummary[]): ResetScan {
  const registry = new SessionRegistry();
  for (const session of sessions) registry.add(session);

  const movedTo = new Map<string, number>();
  const startedInList = new Set<number>();
  const resets = new Map<number, ContextResetPart>();
  const sessionParts = new Map<string, SessionPart>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type === "data-session") {
        if (!sessionParts.has(part.data.id)) sessionParts.set(part.data.id, part.data);
        continue;
      }
      const reset = completedReset(part);
      if (!reset) continue;
      startedInList.add(reset.number);
      if (!resets.has(reset.number)) resets.set(reset.number, reset.data);
      for (const id of reset.data.movedMessageIds ?? []) movedTo.set(id, reset.number);
    }
  }

  for (const [number, data] of resets) {
    const known = registry.byNumber.get(number);
    if (known) {
      // `sessions` may predate the handoff being attached; the stream's copy is newer.
      if (!known.handoff && data.handoff) registry.replace({ ...known, handoff: data.handoff });
      continue;
    }
    const announced = data.newSessionId ? sessionParts.get(data.newSessionId) : undefined;
    const previous = registry.byNumber.get(registry.numberOf(data.oldSessionId) ?? number - 1);
    registry.add(
      synthesizeSession({
        number,
        id: data.newSessionId ?? "",
        model: announced?.model ?? previous?.model ?? "",
        profile: announced?.profile ?? previous?.profile ?? "",
        trigger: announced?.trigger ?? "threshold",
        startedAt: announced?.startedAt ?? data.handoff?.createdAt ?? "",
        handoff: data.handoff ?? null,
      }),
    );
  }
  for (const announced of sessionParts.values()) {
    if (registry.numberOf(announced.id) !== undefined) continue;
    const { id, number, model, profile, trigger, startedAt } = announced;
    registry.add(synthesizeSession({ id, number, model, profile, trigger, startedAt }));
  }
  return { registry, movedTo, startedInList };
}

/**
 * The session a message's first part runs in, from what the message itself says: the session a
 * reset it carries started from (most specific: the server may stamp either session in metadata),
 * its metadata, or the `data-session` part a turn starts with.
 */
function ownSession(message: ChatMessage, registry: SessionRegistry): number | undefined {
  let announced: number | undefined;
  for (const part of message.parts) {
    if (part.type === "data-context-reset") {
      // Part ids are `reset-<fromSessionId>` (SPEC §7), which covers events sent without it.
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
}

interface SessionRows {
  /** Messages a committed reset moved here: right below the divider, whatever their position. */
  moved: ListItem[];
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
 * Builds the message list. Each message belongs to its `metadata.sessionId`; one without (live)
 * belongs to the latest session started at its point in the list. A live assistant message that
 * carries a committed reset is split there, so its rows match what the server stores: the reply
 * so far in session N, the divider, the moved user messages, then the rest in session N+1.
 * Sessions are laid out in number order, each behind a divider from session 2 on, including
 * sessions with no messages. O(messages + parts) when messages arrive in seq order.
 */
export function formatMessages(
  messages: ChatMessage[],
  sessions: SessionSummary[],
  _options: FormatMessagesOptions = {},
): FormattedMessages {
  const ordered = orderMessages(messages);
  const { registry, movedTo, startedInList } = scanResets(ordered, sessions);

  const bySession = new Map<number, SessionRows>();
  const rowsOf = (number: number): SessionRows => {
    let rows = bySession.get(number);
    if (!rows) {
      rows = { moved: [], rows: [] };
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

  for (const message of ordered) {
    if (!inLiveTail && message.metadata?.seq === undefined) {
      inLiveTail = true;
      current = Math.max(current, startedBeforeLiveTail);
    }
    const moved = movedTo.get(message.id);
    const first = moved ?? ownSession(message, registry) ?? current;

    const parts = message.parts;
    let needsWalk = false;
    for (const part of parts) {
      if (part.type === "data-context-reset" || part.type === "data-compaction") {
        needsWalk = true;
        break;
      }
    }
    const firstRows = moved === undefined ? rowsOf(first).rows : rowsOf(first).moved;
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
      if (part?.type !== "data-context-reset") continue;
      const { event } = part.data;
      const reset = completedReset(part);
      if (reset && reset.number !== segment.session) {
        segment.to = i;
        segments.push(segment);
        segment = { session: reset.number, from: i + 1, to: parts.length, before: [], after: [] };
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
    // A half with nothing to show is dropped, but a message always keeps one row: the last,
    // where a reply that has not streamed any text yet will appear.
    let keep = segments.map((s) => !split || hasContent(parts, s.from, s.to));
    if (!keep.includes(true)) keep = segments.map((_, i) => i === segments.length - 1);

    for (const [i, s] of segments.entries()) {
      const target = i === 0 ? firstRows : rowsOf(s.session).rows;
      if (i > 0) current = Math.max(current, s.session);
      for (const item of s.before) target.push(item);
      if (keep[i]) {
        target.push({
          kind: "message",
          key: i === 0 ? message.id : `${message.id}:s${s.session}`,
          message: split ? { ...message, parts: parts.slice(s.from, s.to) } : message,
          sessionNumber: s.session,
        });
      }
      for (const item of s.after) target.push(item);
    }
  }

  const items: ListItem[] = [];
  const sessionStartIndex: Record<number, number> = {};
  const numbers = [...bySession.keys()].sort((a, b) => a - b);
  for (const number of numbers) {
    const rows = bySession.get(number);
    if (!rows) continue;
    if (number >= 2) {
      sessionStartIndex[number] = items.length;
      items.push({
        kind: "session_divider",
        key: `session:${number}`,
        sessionNumber: number,
        session: registry.get(number),
      });
    }
    for (const item of rows.moved) items.push(item);
    for (const item of rows.rows) items.push(item);
  }
  if (bySession.has(1) && items.length > 0) sessionStartIndex[1] = 0;
  return { items, sessionStartIndex };
}
