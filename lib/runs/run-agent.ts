// The agent a run is working as right now: its profile (with the prompt its calls carry), the
// model it runs on and the tools it is given. A run starts as the thread's agent; an accepted
// transfer makes the target the run's agent for the rest of it — it never inherits the source's
// prompt, tools or model.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ToolSet } from "ai";
import { listToolServers } from "@/db/queries/tool-servers";
import type { Message, ToolServer } from "@/db/schema";
import { agentSystemPrompt, agentToolTokens, createAgentTools } from "@/lib/agents/agent-tools";
import { findProfile, listAgents, type Profile } from "@/lib/agents/profiles";
import type { ToolContext } from "@/lib/agents/tools";
import { LegGuard } from "@/lib/agents/transfer/guard";
import { type TransferToolContext, transferTargetsOf } from "@/lib/agents/transfer/tools";
import { listConfiguredModels } from "@/lib/ai/providers";
import { modelCallsTools, resolveModelInfo } from "@/lib/ai/registry";
import { estimateTokens, PROMPT_OVERHEAD_TOKENS } from "@/lib/ai/token-count";
import type { McpConnections } from "@/lib/connections/run-connections";
import { normalizeBrief, renderBriefMarkdown } from "@/lib/handoff/agent-brief";
import type { RunScope } from "./run-context";

export interface AgentToolRequest {
  tools: ToolContext;
  guard: LegGuard;
  approvedCallIds: ReadonlySet<string>;
  /** Transfers the run has made so far. */
  transfersSoFar: () => number;
  /** Told of every transfer decision (the run's journal). */
  onDecision?: TransferToolContext["onDecision"];
  commit: TransferToolContext["commit"];
  /** The run's connections to the user's tool servers. */
  mcp: McpConnections;
}

export class RunAgent {
  private constructor(
    /** The profile as stored. */
    readonly profile: Profile,
    /** The run's scope as this agent: its prompt carries the transfer lines when it may transfer. */
    readonly scope: RunScope,
    readonly model: LanguageModelV3,
    /** Whether handoff_to_agent and list_agents are offered (some agent could take the work). */
    readonly offersTransfer: boolean,
    private readonly request: Message,
    /** The thread's model: what a target without a model of its own runs on. */
    private readonly threadModelId: string,
    /** The user's tool servers, as stored when the agent was entered. */
    private readonly servers: readonly ToolServer[],
  ) {}

  static async enter(input: {
    userId: string;
    threadId: string;
    profile: Profile;
    modelId: string;
    model: LanguageModelV3;
    request: Message;
    threadModelId: string;
  }): Promise<RunAgent> {
    const { profile } = input;
    // Offered only when some agent could take the work: the definitions cost every call tokens.
    const mayTransfer = profile.toolsAllow.includes("handoff_to_agent");
    const [agents, servers] = await Promise.all([
      mayTransfer ? listAgents(input.userId) : [],
      listToolServers({ userId: input.userId }),
    ]);
    const offers = mayTransfer && transferTargetsOf(profile, agents).length > 0;
    const tools = definitionTools(profile, offers, servers, {
      userId: input.userId,
      threadId: input.threadId,
      sessionId: "",
      runId: null,
      isGranted: async () => false,
    });
    return new RunAgent(
      profile,
      {
        userId: input.userId,
        threadId: input.threadId,
        modelId: input.modelId,
        profile: { ...profile, systemPrompt: agentSystemPrompt(profile, offers) },
        toolTokens: await agentToolTokens(input.modelId, tools),
      },
      input.model,
      offers,
      input.request,
      input.threadModelId,
      servers,
    );
  }

  get modelId(): string {
    return this.scope.modelId;
  }

  get ref() {
    return { id: this.profile.id, name: this.profile.name };
  }

  tools(request: AgentToolRequest): ToolSet {
    const { userId } = this.scope;
    return createAgentTools({
      profile: this.profile,
      transfer: this.offersTransfer,
      tools: request.tools,
      guard: request.guard,
      approvedCallIds: request.approvedCallIds,
      transferContext: {
        transfersSoFar: request.transfersSoFar,
        listAgents: () => listAgents(userId),
        findAgent: (id) => findProfile({ userId, profileId: id }),
        threadModelId: this.threadModelId,
        isConfigured: (modelId) => listConfiguredModels().some((m) => m.id === modelId),
        callsTools: (modelId) => modelCallsTools(modelId),
        fit: (target, modelId, input) => this.fitOf(target, modelId, input, request.tools),
        onDecision: request.onDecision,
        commit: request.commit,
      },
      mcp: { servers: this.servers, connections: request.mcp },
    });
  }

  toolTokens(tools: ToolSet): Promise<number> {
    return agentToolTokens(this.modelId, tools);
  }

  /** The target's first call with this brief — prompt, brief, request, tools — and its budget. */
  private async fitOf(
    target: Profile,
    modelId: string,
    input: Parameters<TransferToolContext["fit"]>[2],
    context: ToolContext,
  ) {
    const brief = normalizeBrief(input, this.ref, { id: target.id, name: target.name });
    const prompt = `${agentSystemPrompt(target, true)}\n\n${renderBriefMarkdown(brief)}`;
    const targetTools = definitionTools(target, true, this.servers, context);
    const tokens =
      PROMPT_OVERHEAD_TOKENS +
      estimateTokens(prompt, modelId) +
      this.request.tokenCount +
      (await agentToolTokens(modelId, targetTools));
    return { tokens, budget: target.resetThreshold * resolveModelInfo(modelId).contextWindow };
  }
}

/** An agent's tools for their definitions only (what they cost), never to be run. */
function definitionTools(
  profile: Profile,
  transfer: boolean,
  servers: readonly ToolServer[],
  context: ToolContext,
): ToolSet {
  return createAgentTools({
    profile,
    transfer,
    tools: context,
    guard: new LegGuard(),
    approvedCallIds: new Set(),
    transferContext: {
      transfersSoFar: () => 0,
      listAgents: async () => [],
      findAgent: async () => null,
      threadModelId: "",
      isConfigured: () => false,
      callsTools: () => false,
      fit: async () => ({ tokens: 0, budget: 0 }),
      commit: async () => {
        throw new Error("definition-only tools never run");
      },
    },
    mcp: { servers, connections: null },
  });
}
