// The transfer tools as the calling agent sees them: `handoff_to_agent` gives the next stage
// of the work to another agent with a written brief, `list_agents` says who can take it. Their
// descriptions and results speak of agents by their public names only — never of runs,
// sessions, invocations or storage. An accepted transfer is committed before the tool answers
// (lib/agents/transfer/transfer.ts), so a server that dies after the answer resumes the run as the
// target; the run loop switches to the target once the step has ended.
import "server-only";
import { tool, zodSchema } from "ai";
import { z } from "zod";
import { type BriefInput, briefInputSchema, normalizeBrief } from "@/lib/handoff/agent-brief";
import type { Profile } from "../profiles";
import { checkTransfer, type TransferCheck, type TransferCheckInput } from "./checks";
import type { AcceptedTransfer, LegGuard } from "./guard";

export interface TransferToolContext {
  /** The agent whose tools these are. */
  source: Profile;
  guard: LegGuard;
  /** Transfers the run has made so far. */
  transfersSoFar: () => number;
  /** Every agent of the user, the built-in default included. */
  listAgents: () => Promise<Profile[]>;
  findAgent: (id: string) => Promise<Profile | null>;
  threadModelId: string;
  isConfigured: TransferCheckInput["isConfigured"];
  callsTools: TransferCheckInput["callsTools"];
  /** What the target's first call would hold with this brief, against its budget. */
  fit: (
    target: Profile,
    modelId: string,
    input: BriefInput,
  ) => ReturnType<TransferCheckInput["fit"]>;
  /** Commits an accepted transfer (the target's session, the brief, the thread's agent). */
  commit: (transfer: AcceptedTransfer) => Promise<void>;
  /** Told of every decision, for the run's journal. */
  onDecision?: (
    decision: TransferCheck,
    request: { agentId: string; toolCallId: string; objective: string },
  ) => void;
}

export interface TransferToolResult {
  ok: boolean;
  message?: string;
  error?: string;
}

export interface AgentListing {
  id: string;
  name: string;
  description: string;
}

/** Agents `source` could transfer to as far as their profiles go (not itself). */
export function transferTargetsOf(source: Profile, agents: readonly Profile[]): AgentListing[] {
  return agents
    .filter(
      (agent) =>
        agent.id !== source.id &&
        agent.delegation.callable &&
        agent.delegation.allowAsHandoffTarget &&
        (agent.delegation.allowedCallers === "*" ||
          agent.delegation.allowedCallers.includes(source.id)),
    )
    .map((agent) => ({ id: agent.id, name: agent.name, description: agent.description }));
}

const HANDOFF_TO_AGENT_DESCRIPTION =
  "Hand the next stage of this work to another agent (its id from list_agents) with a brief: " +
  "the objective and all it needs to know, since it starts from the brief alone. Your part " +
  "then ends: you call no further tools, and nothing comes back to you.";

const LIST_AGENTS_DESCRIPTION = "List the agents you can hand the next stage of work to.";

// Named after the tool the model calls (`handoff_to_agent`, its `handoff` brief). Built once: the SDK turns each into its JSON schema on first use and keeps it.
const handoffToAgentInput = zodSchema(
  z.object({
    agentId: z.string().describe("The agent's id, from list_agents."),
    handoff: briefInputSchema,
    pendingTaskPolicy: z.enum(["denyIfPending"]).optional(),
  }),
);

const listAgentsInput = zodSchema(
  z.object({
    purpose: z.enum(["handoff"]),
  }),
);

export function createTransferTools(ctx: TransferToolContext) {
  return {
    handoff_to_agent: tool({
      description: HANDOFF_TO_AGENT_DESCRIPTION,
      inputSchema: handoffToAgentInput,
      execute: async ({ agentId, handoff }, { toolCallId }): Promise<TransferToolResult> => {
        const id = agentId.trim().slice(0, 100);
        let decision: TransferCheck;
        try {
          decision = await checkTransfer({
            source: ctx.source,
            offered: true,
            agentId: id,
            objective: handoff.objective,
            pendingApprovals: ctx.guard.pendingApprovals,
            transfersSoFar: ctx.transfersSoFar(),
            target: id === "" ? null : await ctx.findAgent(id),
            threadModelId: ctx.threadModelId,
            isConfigured: ctx.isConfigured,
            callsTools: ctx.callsTools,
            fit: (target, modelId) => ctx.fit(target, modelId, handoff),
          });
        } catch (error) {
          // Storage failing is not the agent's to fix: the run fails once this step ends.
          ctx.guard.hostError = error;
          throw error;
        }
        const request = { agentId: id, toolCallId, objective: handoff.objective };
        if (!decision.ok) {
          ctx.onDecision?.(decision, request);
          return { ok: false, error: decision.message };
        }
        const { target, modelId } = decision;
        const accepted: AcceptedTransfer = {
          target,
          modelId,
          toolCallId,
          brief: normalizeBrief(
            handoff,
            { id: ctx.source.id, name: ctx.source.name },
            { id: target.id, name: target.name },
          ),
        };
        try {
          await ctx.commit(accepted);
        } catch (error) {
          ctx.guard.hostError = error;
          throw error;
        }
        // Journaled once committed: a transfer the host failed to store was never accepted.
        ctx.onDecision?.(decision, request);
        ctx.guard.accept(accepted);
        return {
          ok: true,
          message: `Handoff accepted for Agent ${target.name}. Your part is complete.`,
        };
      },
    }),
    list_agents: tool({
      description: LIST_AGENTS_DESCRIPTION,
      inputSchema: listAgentsInput,
      execute: async () => {
        try {
          return { ok: true, agents: transferTargetsOf(ctx.source, await ctx.listAgents()) };
        } catch (error) {
          ctx.guard.hostError = error;
          throw error;
        }
      },
    }),
  };
}
