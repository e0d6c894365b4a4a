// Which status line an assistant reply shows under it, and whether an interrupted reply may be
// continued. Pure, for components/chat/message-view.tsx and components/chat/chat-panel.tsx.
import type { ChatMessage, MessageStatus } from "./types";

/**
 * `stopped`: the user pressed stop (stored `partial`). `failed`: the reply ended in an error.
 * `interrupted`: the server stopped while writing it (what was streamed is kept). `answering`:
 * the server is writing it on its own, outside this page's stream.
 */
export type ReplyNotice = "stopped" | "failed" | "interrupted" | "answering" | null;

export function replyNotice({
  status,
  streaming,
  stopped,
  failed,
  answering,
}: {
  status: MessageStatus | undefined;
  /** This page is streaming the reply now. */
  streaming: boolean;
  /** The user stopped it in this page. */
  stopped: boolean;
  /** This page's request for it failed. */
  failed: boolean;
  /** The server is writing it on its own. */
  answering: boolean;
}): ReplyNotice {
  if (failed) return "failed";
  if (stopped) return "stopped";
  if (streaming) return null;
  if (answering) return "answering";
  if (status === "interrupted") return "interrupted";
  if (status === "error") return "failed";
  if (status === "partial") return "stopped";
  return null;
}

/**
 * The interrupted reply that may be continued: only the thread's newest message, since the
 * server appends to the reply the model was writing last and nothing may follow it.
 */
export function continuableId(messages: readonly ChatMessage[]): string | null {
  const last = messages.at(-1);
  return last?.role === "assistant" && last.metadata?.status === "interrupted" ? last.id : null;
}

/**
 * The reply a request was writing when its connection broke (a network error, not an answer the
 * server gave), or null: the request never got as far as a reply of its own.
 */
export function lostMidReply(error: Error, messages: readonly ChatMessage[]): ChatMessage | null {
  if (!(error instanceof TypeError)) return null;
  const last = messages.at(-1);
  if (last?.role !== "assistant" || last.parts.length === 0) return null;
  const status = last.metadata?.status;
  return status === undefined || status === "partial" ? last : null;
}
