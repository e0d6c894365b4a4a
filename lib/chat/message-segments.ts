// One message's rows when it runs across sessions (docs/message-list.md): a live reply that
// carries a committed reset or an agent handoff is split there, with its compaction markers and
// its live or failed reset dividers placed beside the part runs they belong to.
import type { ListItem } from "./list-items";
import {
  type Part,
  type SessionRegistry,
  sessionBoundary,
  synthesizeSession,
} from "./session-scan";
import type { AgentHandoffPart, ChatMessage } from "./types";

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

/** The parts [from, to) of a message that ran in one session, with the rows around them. */
export interface Segment {
  session: number;
  from: number;
  to: number;
  before: ListItem[];
  after: ListItem[];
  /** The agent handoff that opened this segment, if one did. */
  openedBy?: AgentHandoffPart;
}

export function hasContent(parts: Part[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const part = parts[i];
    if (part && !NON_CONTENT_PARTS.has(part.type)) return true;
  }
  return false;
}

/** Whether a message holds a part that can split it or add rows beside it. */
export function needsSegments(parts: Part[]): boolean {
  for (const part of parts) {
    if (
      part.type === "data-context-reset" ||
      part.type === "data-compaction" ||
      part.type === "data-agent-handoff"
    ) {
      return true;
    }
  }
  return false;
}

/**
 * The message's part runs, one per session it runs in, starting in session `first`. A reset that
 * has started but not committed adds a live placeholder divider for its upcoming session, once
 * per session (`placeholders` is shared by the whole list).
 */
export function messageSegments(
  message: ChatMessage,
  first: number,
  registry: SessionRegistry,
  placeholders: Set<number>,
): Segment[] {
  const parts = message.parts;
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
  return segments;
}
