// The chat view's live copy of a thread: messages queued behind a reset, the reset a streaming
// reply is running, and how the stored copies replace the live ones after a turn (so the list
// matches a reload). Pure, for components/chat/chat-panel.tsx.
import { inThreadOrder } from "./format-messages";
import type { ChatMessage, ContextResetPart } from "./types";

/** A message sent while a reset runs, answered by its own request (useChat is busy). */
export interface QueuedEntry {
  user: ChatMessage;
  answer: ChatMessage | null;
  done: boolean;
}

function hasAnswerStarted(answer: ChatMessage | null): boolean {
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
    return entry.answer && answered ? [user, entry.answer] : [user];
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
    // half replaces it.
    if (copy.role === "assistant" && shownSize(copy) < shownSize(m) && !spansSessions(m)) {
      return { ...copy, parts: m.parts };
    }
    return copy;
  });
  for (const m of stored) if (!seen.has(m.id)) merged.push(m);
  return inThreadOrder(merged);
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
