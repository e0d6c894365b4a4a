// The chat view's live copy of a thread: messages queued behind a reset, replies followed from
// the server's live streams and where they sit, the reset a streaming reply is running, and how
// the stored copies replace the live ones after a turn (so the list matches a reload). Pure, for
// components/chat/chat-panel.tsx and its hooks.
import { inThreadOrder } from "./format-messages";
import type { ChatMessage, ContextResetPart, LiveStream } from "./types";

/** A message sent while a reset runs, answered by its own request (useChat is busy). */
export interface QueuedEntry {
  user: ChatMessage;
  answer: ChatMessage | null;
  done: boolean;
}

/** A reply the server is streaming that this tab reads from `GET /api/chat/{id}/stream`. */
export interface FollowedStream {
  stream: LiveStream;
  /** What the stream has carried so far (null before its first chunk). */
  message: ChatMessage | null;
  done: boolean;
}

/** Whether an answer got past waiting for a reset: its session began, or it wrote something. */
export function hasAnswerStarted(answer: ChatMessage | null): boolean {
  return (
    answer?.parts.some((part) => part.type === "data-session" || part.type === "text") ?? false
  );
}

/** The queued entries as list messages: the user's with its Queued badge until answered. */
export function queuedMessages(entries: QueuedEntry[], settled = false): ChatMessage[] {
  return entries.flatMap((entry) => {
    const answered = settled || hasAnswerStarted(entry.answer);
    const user: ChatMessage = {
      ...entry.user,
      metadata: { ...entry.user.metadata, status: answered ? "complete" : "queued" },
    };
    // A request that only said it was queued (its question waits for a review) has no reply to
    // show: the server's answer comes later, on its own.
    return entry.answer && answered && hasAnswerStarted(entry.answer)
      ? [user, entry.answer]
      : [user];
  });
}

/** How much a reply shows: its text and its tool calls (a run may stream calls and no text). */
function shownSize(message: ChatMessage): number {
  return message.parts.reduce(
    (n, p) => n + (p.type === "text" ? p.text.length : "toolCallId" in p ? 1 : 0),
    0,
  );
}

/** Where a run moved into a new session: a committed reset, or a handoff to another agent. */
function startsNewSession(part: ChatMessage["parts"][number]): boolean {
  return (
    (part.type === "data-context-reset" && part.data.event === "reset_complete") ||
    part.type === "data-agent-handoff"
  );
}

/**
 * A live message that ran across a committed reset or an agent handoff: the server stored it as
 * one message per session.
 */
export function spansSessions(message: ChatMessage): boolean {
  return message.parts.some(startsNewSession);
}

/** Stored copies replace the local ones (they carry seq and session), nothing local is lost. */
export function reconcileMessages(local: ChatMessage[], stored: ChatMessage[]): ChatMessage[] {
  const byId = new Map(stored.map((m) => [m.id, m]));
  const seen = new Set<string>();
  const merged = local.map((m) => {
    seen.add(m.id);
    const copy = byId.get(m.id);
    if (!copy) return m;
    // A stopped reply is stored a moment after its stream ends: until then the stored copy is
    // shorter than what the reader saw, so keep what is on screen and take only the metadata.
    // A run that reset (or was handed over) midway is stored as two messages: its stored first
    // half replaces it. An interrupted reply's stored copy is what Continue goes on from: the
    // words its dead server streamed after the last save are gone, so they are not shown.
    if (
      copy.role === "assistant" &&
      copy.metadata?.status !== "interrupted" &&
      shownSize(copy) < shownSize(m) &&
      !spansSessions(m)
    ) {
      return { ...copy, parts: m.parts };
    }
    return copy;
  });
  for (const m of stored) if (!seen.has(m.id)) merged.push(m);
  return inThreadOrder(merged);
}

/**
 * The live streams this tab should start reading: not already followed, and not answering a
 * request this tab is streaming itself (its own POST, or the message it continues).
 */
export function streamsToFollow(
  live: readonly LiveStream[],
  {
    followed,
    ownRequests,
    ownMessages,
  }: {
    /** Stream ids this tab has followed (live or ended). */
    followed: ReadonlySet<string>;
    /** User message ids this tab's own requests answer. */
    ownRequests: ReadonlySet<string>;
    /** Assistant message ids this tab's own request continues. */
    ownMessages: ReadonlySet<string>;
  },
): LiveStream[] {
  return live.filter(
    (stream) =>
      !followed.has(stream.streamId) &&
      !(stream.requestId !== null && ownRequests.has(stream.requestId)) &&
      !(stream.continuesMessageId !== null && ownMessages.has(stream.continuesMessageId)),
  );
}

/**
 * What this tab's own requests answer, so their live streams are not read a second time: the
 * question (and the message continued) of useChat's request while it runs, and every queued
 * message still being answered.
 */
export function ownStreamsOf({
  status,
  messages,
  queued,
}: {
  /** useChat's status. */
  status: string;
  messages: readonly ChatMessage[];
  queued: readonly QueuedEntry[];
}): { requests: Set<string>; messages: Set<string> } {
  const requests = new Set<string>();
  const continued = new Set<string>();
  if (status === "submitted" || status === "streaming") {
    const question = messages.findLast((m) => m.role === "user");
    if (question) requests.add(question.id);
    const last = messages.at(-1);
    if (last?.role === "assistant") continued.add(last.id);
  }
  for (const entry of queued) if (!entry.done) requests.add(entry.user.id);
  return { requests, messages: continued };
}

/**
 * The list with the followed replies in it: a reply that continues a listed message replaces
 * it, any other goes directly under the question it answers (the list orders by seq once the
 * reply's metadata carries one). A question shows as queued, and its answer not at all, until
 * the answer starts.
 */
export function withLiveMessages(
  list: readonly ChatMessage[],
  followed: readonly FollowedStream[],
): ChatMessage[] {
  const result = [...list];
  for (const { stream, message } of followed) {
    if (!message) continue;
    const request = stream.requestId ? result.findIndex((m) => m.id === stream.requestId) : -1;
    const question = result[request];
    const waiting = question?.metadata?.status === "queued";
    // An answer still waiting for a reset shows nothing yet: its question says Queued.
    if (waiting && !hasAnswerStarted(message)) continue;
    const same = result.findIndex((m) => m.id === message.id);
    if (same >= 0) {
      result[same] = message;
    } else {
      // Under its question, and under earlier replies to it (a reset splits a run in two).
      let insertAt = request < 0 ? result.length : request + 1;
      while (request >= 0 && result[insertAt]?.role === "assistant") insertAt += 1;
      result.splice(insertAt, 0, message);
    }
    if (question && waiting) {
      result[request] = { ...question, metadata: { ...question.metadata, status: "complete" } };
    }
  }
  return result;
}

/**
 * Whether any of these replies carries the reset of the session with this id (running or ended):
 * then its part tells the reset's state, not the thread API's last reading.
 */
export function carriesResetOf(
  replies: readonly (ChatMessage | null | undefined)[],
  sessionId: string | undefined,
): boolean {
  if (!sessionId) return false;
  return replies.some((message) =>
    message?.parts.some(
      (part) =>
        part.type === "data-context-reset" &&
        (part.data.oldSessionId === sessionId || part.id === `reset-${sessionId}`),
    ),
  );
}

/**
 * The questions that still read "Answering…": it gives way to what a followed stream shows — its
 * answer once started, and the Queued badge of a question waiting behind a reset.
 */
export function stillAnswering(
  answering: ReadonlySet<string>,
  followed: readonly FollowedStream[],
  list: readonly ChatMessage[],
): ReadonlySet<string> {
  const queued = new Set(list.flatMap((m) => (m.metadata?.status === "queued" ? [m.id] : [])));
  const shown = new Set<string>();
  for (const { stream, message } of followed) {
    const id = stream.requestId;
    if (id && (hasAnswerStarted(message) || queued.has(id))) shown.add(id);
  }
  return new Set([...answering].filter((id) => !shown.has(id)));
}

/** The first reset still running among these replies (a reset shows in every stream it holds). */
export function runningResetIn(
  messages: readonly (ChatMessage | null | undefined)[],
): ContextResetPart | null {
  for (const message of messages) {
    const reset = runningReset(message ?? undefined);
    if (reset) return reset;
  }
  return null;
}

/** The reset the streaming reply is running, if it has not ended yet. */
export function runningReset(message: ChatMessage | undefined): ContextResetPart | null {
  if (message?.role !== "assistant") return null;
  const last = message.parts.findLast((part) => part.type === "data-context-reset");
  if (last?.type !== "data-context-reset") return null;
  const { event } = last.data;
  return event === "reset_starting" || event === "input_blocked" ? last.data : null;
}

/**
 * Whether the answer to the latest user message ran across a reset (or an agent handoff) between
 * its steps: the server refuses to edit or regenerate such a message (part of the answer lives
 * in an ended session, and the workspace is not rolled back). Stored copies show it as a later
 * message in another session than the request's; a live run, as a committed reset or a handoff
 * after the run's first tool call or text.
 */
export function answerRanAcrossReset(messages: readonly ChatMessage[]): boolean {
  const at = messages.findLastIndex((m) => m.role === "user");
  if (at < 0) return false;
  const requestSession = messages[at]?.metadata?.sessionId;
  for (const message of messages.slice(at + 1)) {
    const session = message.metadata?.sessionId;
    if (requestSession && session && session !== requestSession) return true;
    let worked = false;
    for (const part of message.parts) {
      if (part.type === "text" || "toolCallId" in part) worked = true;
      else if (startsNewSession(part) && worked) return true;
    }
  }
  return false;
}
