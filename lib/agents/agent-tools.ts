// The tools one agent works with: the built-in tools its profile allows, the transfer tools when
// it may use them, and the MCP tools it allows of the user's tool servers — with the calls of a
// leg kept in order and gated by a transfer (transfer/guard.ts). Also what those definitions cost
// per call, and the lines of the agent's prompt that tell it how transferring works, from its own
// point of view.
import "server-only";
import type { ToolSet } from "ai";
import { MCP_TOOL_PREFIX } from "@/core/mcp-tool-names";
import { toolSetTokens } from "@/lib/ai/tool-definitions";
import { type Profile, TRANSFER_TOOL_NAMES } from "./profiles";
import { createBuiltinTools, type ToolContext } from "./tools";
import { withAnsweredApprovals } from "./tools/approvals";
import { createMcpTools, type McpToolContext } from "./tools/mcp";
import type { LegGuard } from "./transfer/guard";
import { createTransferTools, type TransferToolContext } from "./transfer/tools";

export interface AgentToolsInput {
  profile: Profile;
  /** Whether the transfer tools are offered (the user has another agent to transfer to). */
  transfer: boolean;
  tools: ToolContext;
  guard: LegGuard;
  approvedCallIds: ReadonlySet<string>;
  transferContext: Omit<TransferToolContext, "source" | "guard">;
  /** The user's tool servers and the run's connections to them. */
  mcp: McpToolContext;
}

/** The names of the tools `profile` is given, in a stable order. */
function agentToolNames(profile: Profile, transfer: boolean): string[] {
  const allowed = new Set(profile.toolsAllow);
  const builtins = builtinNames().filter((name) => allowed.has(name));
  const transferTools = transfer ? TRANSFER_TOOL_NAMES.filter((name) => allowed.has(name)) : [];
  return [...builtins, ...transferTools];
}

export function createAgentTools(input: AgentToolsInput): ToolSet {
  const names = new Set(agentToolNames(input.profile, input.transfer));
  const all: ToolSet = {
    ...createBuiltinTools(input.tools),
    ...(input.transfer
      ? createTransferTools({ ...input.transferContext, source: input.profile, guard: input.guard })
      : {}),
  };
  const tools: ToolSet = {};
  for (const [name, tool] of Object.entries(all)) if (names.has(name)) tools[name] = tool;
  Object.assign(tools, createMcpTools(input.profile.toolsAllow, input.mcp, input.tools));
  return input.guard.wrap(withAnsweredApprovals(tools, input.approvedCallIds));
}

let builtinNamesOnce: string[] | null = null;

/** The built-in tools' names (the set is fixed, so it is built once to read them). */
function builtinNames(): string[] {
  builtinNamesOnce ??= Object.keys(
    createBuiltinTools({
      userId: "",
      threadId: "",
      sessionId: "",
      runId: null,
      isGranted: async () => false,
    }),
  );
  return builtinNamesOnce;
}

const tokensByTools = new Map<string, Promise<number>>();

/**
 * What identifies a tool set's definitions: the names, and for MCP tools (whose description and
 * schema a refresh may change under the same name) those too.
 */
function definitionsKey(tools: ToolSet): string {
  return Object.entries(tools)
    .map(([name, tool]) => {
      if (!name.startsWith(MCP_TOOL_PREFIX)) return name;
      const schema = (tool.inputSchema as { jsonSchema?: unknown }).jsonSchema;
      return `${name}\u0001${tool.description ?? ""}\u0001${JSON.stringify(schema)}`;
    })
    .join("\u0000");
}

/**
 * What the definitions of `tools` cost in every call of `modelId`: they depend only on which
 * tools they are, so the figure is kept per model and definitions.
 */
export function agentToolTokens(modelId: string, tools: ToolSet): Promise<number> {
  const key = `${modelId}\u0000${definitionsKey(tools)}`;
  let known = tokensByTools.get(key);
  if (!known) {
    known = toolSetTokens(tools, modelId);
    tokensByTools.set(key, known);
  }
  return known;
}

/**
 * The agent's prompt as its calls carry it: its own system prompt and, when it may transfer, how
 * that works from where it stands — no run, session or storage terms.
 */
export function agentSystemPrompt(profile: Profile, canTransfer: boolean): string {
  if (!canTransfer) return profile.systemPrompt;
  return [
    profile.systemPrompt,
    "## Handing off to another agent",
    `Here you are the agent ${profile.name} (${profile.id}). When another agent is better placed to do the next stage of this work, call handoff_to_agent with its id and a brief; list_agents shows who can take it. ` +
      "The brief is all the other agent gets, so write the objective and what it needs: what is done, which files to read, what must be kept, how to tell the stage is done. " +
      "Handing off ends your part: you call no further tools, and nothing comes back to you. Hand off only when the user asks for it or the work clearly belongs to another agent.",
  ].join("\n\n");
}
