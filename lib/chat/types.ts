// Shapes shared by the server, the stream and the browser: UI messages with Baton's metadata
// and data parts (docs/streams.md), and the session summaries the thread API returns beside
// messages.
import type { UIMessage } from "ai";
import type { AgentBrief, AgentRef, MessageStatus, SessionTrigger } from "@/core/types";
import type { HandoffArtifact } from "@/lib/handoff/artifact";

export type { AgentBrief, AgentRef, MessageStatus, SessionTrigger };

export type ContextStrategy = "reset" | "compact" | "off";

export interface MessageMetadata {
  /** Per-thread monotonic sequence number; absent on optimistic client messages. */
  seq?: number;
  sessionId?: string;
  status?: MessageStatus;
  /** The model that wrote an assistant message. */
  model?: string;
  /** The agent that wrote an assistant message (absent on older messages: the session's). */
  agent?: AgentRef;
  createdAt?: string;
  /** Set on messages whose content was folded into a compaction summary. */
  compacted?: boolean;
}

export interface HandoffView {
  key: string;
  revision: number;
  id: string;
  sessionNumber: number;
  artifact: HandoffArtifact;
  markdown: string;
  createdAt: string;
  redactions: { kind: string; field: string }[];
  /** What the reset that wrote this revision did not carry (trimmed to fit the bound). */
  dropped?: { field: string; item: string }[];
  /** `agent_handoff`: one agent's brief to the next (then `brief` is set). */
  kind?: "session" | "agent_handoff";
  brief?: AgentBrief;
}

export type ContextResetEvent =
  | "reset_starting"
  | "input_blocked"
  | "reset_complete"
  | "reset_cancelled"
  | "reset_failed"
  /** The handoff is drafted and waits for the user's review; terminal for the stream carrying it. */
  | "awaiting_review";

export interface SessionPart {
  id: string;
  number: number;
  model: string;
  profile: string;
  trigger: SessionTrigger;
  startedAt: string;
}

export interface ContextPart {
  inputTokens: number;
  contextWindow: number;
  utilization: number;
  threshold: number;
  strategy: ContextStrategy;
  /**
   * The ratio (provider-reported ÷ local estimate) the estimated part of `inputTokens` was scaled
   * by; absent while no call of the session or its model family has reported usage.
   */
  calibration?: number;
}

export interface ContextResetPart {
  event: ContextResetEvent;
  oldSessionId?: string;
  newSessionId?: string;
  sessionNumber?: number;
  utilization?: number;
  threshold?: number;
  handoff?: HandoffView;
  movedMessageIds?: string[];
  reason?: string;
  /**
   * Why a reset failed, for code: `thrash` (a new session filled up again within two steps);
   * `brief_too_large` (the items a brief never drops exceed its bound; `pins` lists the pinned ones).
   */
  code?: "thrash" | "brief_too_large";
  /** With `brief_too_large`: the thread's pinned (must-preserve) items, as the brief held them. */
  pins?: string[];
  /** With `awaiting_review`: the handoff drafted for the user to review before it replaces the session. */
  draft?: DraftView;
}

/**
 * A handoff drafted for review (`POST /api/threads/{id}/reset {review: true}`, or a threshold
 * reset under review `always`): the thread stays in session `fromSession` until the user
 * commits it (`/reset/commit`), cancels it (`/reset/cancel`) or it expires.
 */
export interface DraftView {
  threadId: string;
  fromSession: number;
  trigger: SessionTrigger;
  state: "awaiting_review" | "committed" | "cancelled" | "expired";
  artifact: HandoffArtifact;
  /** What bounding the draft left out (the user may put an item back by editing the draft). */
  dropped: { field: string; item: string }[];
  source: "model" | "repaired" | "mechanical";
  createdAt: string;
  expiresAt: string;
}

export interface CompactionPart {
  tokensBefore: number;
  tokensAfter: number;
}

/** An agent as the thread shows it: its slug (public name) and display name. */
/** The live stream's record of an accepted agent handoff (the divider before reload). */
export interface AgentHandoffPart {
  from: AgentRef;
  to: AgentRef;
  title?: string;
  reason?: string;
  oldSessionId: string;
  newSessionId: string;
  sessionNumber: number;
  /** The stored revision: `markdown` is the brief, `brief` its fields. */
  handoff: HandoffView;
  /**
   * The user messages the handoff moved into the target's session (the run's request, and any
   * queued behind it). Absent: the list takes the request to be the user message above the reply.
   */
  movedMessageIds?: string[];
}

export type BatonDataParts = {
  queued: { messageId: string };
  session: SessionPart;
  context: ContextPart;
  "context-reset": ContextResetPart;
  compaction: CompactionPart;
  "agent-handoff": AgentHandoffPart;
};

export type ChatMessage = UIMessage<MessageMetadata, BatonDataParts>;

export interface SessionSummary {
  id: string;
  number: number;
  model: string;
  profile: string;
  trigger: SessionTrigger;
  startedAt: string;
  endedAt: string | null;
  /** Sequence number of the session's first message (null while it has none). */
  firstSeq: number | null;
  messageCount: number;
  /** The handoff revision that started this session (null for session 1 of a fresh thread). */
  handoff: HandoffView | null;
  /** The agent whose session it is (its profile; "Default" for the built-in one). */
  agent?: AgentRef;
  /** For a session a context reset started (stored from this feature on): how the reset went. */
  reset?: ResetDetails;
}

/** What the divider says about the reset that started a session. */
export interface ResetDetails {
  /** The ended session's context at the reset (null when not recorded). */
  before: { tokens: number; utilization: number } | null;
  /** The new session's estimated context at its start. */
  after: { tokens: number; utilization: number };
  durationMs: number;
  /** Who wrote the handoff: the model, the model on its repair attempt, or the mechanical merge. */
  source: "model" | "repaired" | "mechanical";
  /** Tokens spent writing the handoff (model calls' input and output; 0 when mechanical). */
  writerTokens: number;
}

/**
 * A reply the server is streaming now, which any tab of its owner can follow from the start
 * (`GET /api/chat/{threadId}/stream?streamId=…`, docs/streams.md). While it is live, the thread
 * API leaves the rows it is writing out of the page (or, for a stream that continues a stored
 * message, returns that message cut to what it held when the stream began), so following the
 * stream never doubles text.
 */
export interface LiveStream {
  streamId: string;
  /** The user message the reply answers. */
  requestId: string | null;
  /** The stored assistant message the stream appends to (an approval answer, a continue). */
  continuesMessageId: string | null;
  startedAt: string;
}

/** One of the thread's current pins (docs/handoffs.md#pins), as the cards mark and unpin it. */
export interface ThreadPinView {
  id: string;
  text: string;
}

/** A context reset running in the thread now, so a reloaded page can show it and queue input. */
export interface ActiveResetView {
  /** The number of the session being reset. */
  fromSession: number;
  trigger: SessionTrigger;
  startedAt: string;
}
