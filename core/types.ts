// The shapes the database's tables store and the rest of the app shares: a message's status, what
// started a session, and the brief one agent hands the next. db/schema.ts types its JSON and enum
// columns with them, so they live below both db/ and lib/.

/**
 * `partial`: streaming, or stopped by the user. `interrupted`: cut off by a server that died
 * while streaming it (what was streamed is kept; the user may Continue or Regenerate).
 */
export type MessageStatus = "complete" | "partial" | "queued" | "error" | "interrupted";
export type SessionTrigger = "initial" | "threshold" | "manual" | "agent_handoff" | "continuation";

export interface AgentRef {
  id: string;
  name: string;
}

/**
 * What one agent handed the next (handoff_to_agent's `handoff` argument, normalized). Stored
 * with the handoff revision of kind `agent_handoff`; `markdown` of that revision is the brief as
 * the target read it (lib/handoff/agent-brief.ts).
 */
export interface AgentBrief {
  from: AgentRef;
  to: AgentRef;
  objective: string;
  title?: string;
  reason?: string;
  contextSummary?: string;
  workspaceRefs: string[];
  mustPreserve: string[];
  completionCriteria: string[];
  /** Any other fields the source passed, rendered under "Additional Instructions". */
  additional: Record<string, string>;
}
