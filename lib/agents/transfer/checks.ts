// Whether a transfer may go ahead, checked in a fixed order: the brief is usable → the source may
// transfer → nothing is pending → the run has depth left → the target exists, may be called,
// accepts transfers, accepts this caller, runs on a configured model that can hold the brief and
// call tools. Every failure is a denial the source agent reads as its tool result and can act on;
// none of them stores anything. The messages are what the model reads and keep the tool's own
// wording (`handoff_to_agent`); the codes are journaled and stay as stored.
import type { Profile } from "../profiles";

type TransferDenialCode =
  | "invalid_brief"
  | "not_allowed"
  | "self"
  | "pending"
  | "depth_exhausted"
  | "unknown_target"
  | "not_callable"
  | "not_a_handoff_target"
  | "caller_not_allowed"
  | "model_not_configured"
  | "no_tool_calls"
  | "brief_too_large";

export type TransferCheck =
  | { ok: true; target: Profile; modelId: string }
  | { ok: false; code: TransferDenialCode; message: string };

export interface TransferCheckInput {
  source: Profile;
  /** The source is the run's foreground agent and has handoff_to_agent in its tools. */
  offered: boolean;
  agentId: string;
  objective: string;
  /** Calls of this run awaiting the user's approval. */
  pendingApprovals: number;
  /** Transfers this run has already made. */
  transfersSoFar: number;
  /** The user's profile `agentId`, or null when there is none. */
  target: Profile | null;
  /** The thread's model: what a target without a model of its own runs on. */
  threadModelId: string;
  isConfigured: (modelId: string) => boolean;
  callsTools: (modelId: string) => boolean;
  /**
   * What the target's first call would hold (its system prompt, the brief, the request, its tool
   * definitions) against what its context may hold before it resets.
   */
  fit: (target: Profile, modelId: string) => Promise<{ tokens: number; budget: number }>;
}

const deny = (code: TransferDenialCode, message: string): TransferCheck => ({
  ok: false,
  code,
  message,
});

export async function checkTransfer(input: TransferCheckInput): Promise<TransferCheck> {
  const { source, target, agentId } = input;
  if (agentId.trim() === "") {
    return deny(
      "invalid_brief",
      "Handoff not made: agentId is empty. Name the agent to hand off to.",
    );
  }
  if (input.objective.trim() === "") {
    return deny(
      "invalid_brief",
      "Handoff not made: handoff.objective is empty. Say what the next agent must achieve.",
    );
  }
  if (!input.offered || !source.delegation.canHandoff) {
    return deny("not_allowed", `Handoff not allowed: ${source.name} may not hand off work.`);
  }
  if (agentId === source.id) {
    return deny("self", `Handoff not made: you are ${source.name} already.`);
  }
  if (input.pendingApprovals > 0) {
    return deny(
      "pending",
      `Handoff not made: ${input.pendingApprovals} tool call(s) await the user's approval. Hand off once they are answered.`,
    );
  }
  if (input.transfersSoFar >= source.delegation.maxHandoffDepth) {
    return deny(
      "depth_exhausted",
      `Handoff not made: this run has made ${input.transfersSoFar} handoff(s), the most ${source.name} allows (${source.delegation.maxHandoffDepth}). Finish the work yourself.`,
    );
  }
  if (!target) {
    return deny(
      "unknown_target",
      `Handoff not made: there is no agent "${agentId}". Call list_agents to see who you can hand off to.`,
    );
  }
  if (!target.delegation.callable) {
    return deny(
      "not_callable",
      `Handoff not made: ${target.name} cannot be called by other agents.`,
    );
  }
  if (!target.delegation.allowAsHandoffTarget) {
    return deny("not_a_handoff_target", `Handoff not made: ${target.name} does not take handoffs.`);
  }
  const callers = target.delegation.allowedCallers;
  if (callers !== "*" && !callers.includes(source.id)) {
    return deny(
      "caller_not_allowed",
      `Handoff not made: ${target.name} does not take handoffs from ${source.name}.`,
    );
  }
  const modelId = target.model ?? input.threadModelId;
  if (!input.isConfigured(modelId)) {
    return deny(
      "model_not_configured",
      `Handoff not made: ${target.name} runs on the model "${modelId}", which this server has not configured.`,
    );
  }
  if (target.toolsAllow.length > 0 && !input.callsTools(modelId)) {
    return deny(
      "no_tool_calls",
      `Handoff not made: ${target.name} is allowed tools, but its model "${modelId}" cannot call tools.`,
    );
  }
  const { tokens, budget } = await input.fit(target, modelId);
  if (tokens >= budget) {
    return deny(
      "brief_too_large",
      `Handoff not made: the brief and ${target.name}'s instructions (about ${tokens} tokens) do not fit under its context limit (${Math.floor(budget)} tokens). Shorten the brief.`,
    );
  }
  return { ok: true, target, modelId };
}
