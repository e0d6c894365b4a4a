// The rows of the message list (docs/message-list.md): messages, session dividers (committed,
// live or failed), compaction markers and placeholders for unloaded messages.
import type { DividerHandoff } from "./format-agents";
import type { AgentRef, ChatMessage, ContextResetEvent, SessionSummary } from "./types";

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

/**
 * A reset that has started but not committed: the divider is a placeholder until it does. While
 * its handoff waits for the user's review (`awaiting_review`) the placeholder is the draft editor.
 */
interface LiveResetState {
  event: Extract<ContextResetEvent, "reset_starting" | "input_blocked" | "awaiting_review">;
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

interface CompactionItem {
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
