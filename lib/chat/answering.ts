// Messages the server answers on its own (queued behind a reset, or orphaned by a server that
// died and answered on recovery): which rows the chat view shows as "answering…", whether it
// keeps polling the thread, and how long it waits between polls. Pure, for
// components/chat/use-answering-poll.ts and components/chat/chat-panel.tsx.
import type { ChatMessage } from "./types";

export const POLL_FIRST_MS = 1_500;
export const POLL_MAX_MS = 5_000;
const POLL_GROWTH = 1.5;
/**
 * Polls in a row that found a reply being written without growth before the view stops
 * following it: the server may have died again, or be waiting on a slow model.
 */
export const MAX_QUIET_POLLS = 4;

/** The wait before poll number `attempt` (0 first): 1.5 s, growing to at most 5 s. */
export function pollDelay(attempt: number): number {
  const delay = POLL_FIRST_MS * POLL_GROWTH ** Math.max(0, attempt);
  return Math.min(POLL_MAX_MS, Math.round(delay));
}

export interface AnsweringState {
  /** User messages the server named as still unanswered (`ThreadView.answering`). */
  ids: readonly string[];
  /**
   * A reply the server is writing under one of them (stored `partial` as it streams): the
   * server no longer names its question, but the view follows it until it is complete.
   */
  reply: { id: string; size: number; quiet: number } | null;
}

export const NOT_ANSWERING: AnsweringState = { ids: [], reply: null };

export function answeringFrom(ids: readonly string[] | undefined): AnsweringState {
  return ids && ids.length > 0 ? { ids: [...ids], reply: null } : NOT_ANSWERING;
}

/** How much a reply shows: its text and its tool calls. */
function shownSize(message: ChatMessage): number {
  return message.parts.reduce(
    (n, p) => n + (p.type === "text" ? p.text.length : "toolCallId" in p ? 1 : 0),
    0,
  );
}

/** The partial reply under `userId`: the last partial one among the replies right below it. */
function partialReplyUnder(messages: readonly ChatMessage[], userId: string): ChatMessage | null {
  const at = messages.findIndex((m) => m.id === userId);
  if (at < 0) return null;
  let found: ChatMessage | null = null;
  for (const message of messages.slice(at + 1)) {
    if (message.role !== "assistant") break;
    if (message.metadata?.status === "partial") found = message;
  }
  return found;
}

/**
 * The state after the newest page was read: the ids the server names now, and the reply being
 * written under a message followed before (only those: a reply the user stopped stays stopped).
 */
export function nextAnswering(
  previous: AnsweringState,
  page: { messages: readonly ChatMessage[]; answering?: readonly string[] },
): AnsweringState {
  const ids = page.answering ?? [];
  let candidate: ChatMessage | null = null;
  if (previous.reply) {
    const again = page.messages.find((m) => m.id === previous.reply?.id);
    if (again?.metadata?.status === "partial") candidate = again;
  }
  for (const id of previous.ids) {
    if (candidate) break;
    candidate = partialReplyUnder(page.messages, id);
  }
  if (!candidate) return ids.length > 0 ? { ids: [...ids], reply: null } : NOT_ANSWERING;
  const size = shownSize(candidate);
  const same = previous.reply?.id === candidate.id;
  const quiet =
    same && previous.reply && previous.reply.size >= size ? previous.reply.quiet + 1 : 0;
  const reply = quiet >= MAX_QUIET_POLLS ? null : { id: candidate.id, size, quiet };
  if (ids.length === 0 && !reply) return NOT_ANSWERING;
  return { ids: [...ids], reply };
}

export function keepsPolling(state: AnsweringState): boolean {
  return state.ids.length > 0 || state.reply !== null;
}

/** The rows shown as "answering…": the questions not answered yet and the reply being written. */
export function answeringIds(state: AnsweringState): ReadonlySet<string> {
  return new Set(state.reply ? [...state.ids, state.reply.id] : state.ids);
}

/**
 * Changes whenever a poll showed progress: the poll then starts again from its shortest wait,
 * and backs off only while nothing moves.
 */
export function progressKey(state: AnsweringState): string {
  return `${state.ids.join(",")}|${state.reply ? `${state.reply.id}:${state.reply.size}` : ""}`;
}
