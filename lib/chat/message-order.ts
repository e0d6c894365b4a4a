// The order the message list shows messages in: seq order, with the messages that have no seq
// yet (optimistic, or live) kept where they arrived relative to the stored ones.
import type { ChatMessage } from "./types";

export interface OrderedMessages {
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
export function orderMessages(messages: ChatMessage[]): OrderedMessages {
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

/**
 * Messages in the order the list shows them (see `orderMessages`), for callers that keep a
 * message array whose last element must be the thread's latest message.
 */
export function inThreadOrder(messages: ChatMessage[]): ChatMessage[] {
  return orderMessages(messages).messages;
}
