// Agent handoff in the offline model's unit tests: the handoff tools' definitions a call offers
// and the brief a target agent's system prompt holds, rendered by the run's own renderer.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { defaultProfile } from "@/lib/agents/profiles";
import { LegGuard } from "@/lib/agents/transfer/guard";
import { createTransferTools } from "@/lib/agents/transfer/tools";
import type { ToolDefinition } from "@/lib/ai/token-count";
import { toolDefinitionsOf } from "@/lib/ai/tool-definitions";
import { normalizeBrief, renderBriefMarkdown } from "@/lib/handoff/agent-brief";
import { json, type OfflineDriver, user } from "./offline-driver";

/** The definitions a call receives for the run's own handoff tools (their executes never run). */
export function handoffToolDefinitions(): Promise<ToolDefinition[]> {
  const unused = () => {
    throw new Error("the definitions' context is never used");
  };
  const tools = createTransferTools({
    source: defaultProfile(),
    guard: new LegGuard(),
    transfersSoFar: unused,
    listAgents: unused,
    findAgent: unused,
    threadModelId: "baton/local",
    commit: unused,
    isConfigured: unused,
    callsTools: unused,
    fit: unused,
  });
  return toolDefinitionsOf(tools);
}

export const HANDOFF_ACCEPTED = json({
  ok: true,
  message: "Handoff accepted for Agent Editor. Your part is complete.",
});

export const assistant = (text: string): LanguageModelV3Prompt[number] => ({
  role: "assistant",
  content: [{ type: "text", text }],
});

/** One finished turn: the message, every step the model takes, its reply. */
export async function turn(
  driver: OfflineDriver,
  prompt: LanguageModelV3Prompt,
  text: string,
): Promise<string> {
  prompt.push(user(text));
  const { text: reply } = await driver.drive(prompt);
  prompt.push(assistant(reply));
  return reply;
}

export interface BriefFields {
  from?: string;
  title?: string;
  reason?: string;
  objective: string;
  contextSummary?: string;
  workspaceRefs?: string[];
  mustPreserve?: string[];
  completionCriteria?: string[];
  additional?: Record<string, string>;
}

/** The brief's markdown as the run renders it for the target (source "Agent Writer" unless named). */
export function agentBriefMarkdown({
  from = "Agent Writer",
  additional = {},
  ...fields
}: BriefFields): string {
  return renderBriefMarkdown(
    normalizeBrief(
      { ...additional, ...fields },
      { id: "writer", name: from },
      { id: "editor", name: "Editor" },
    ),
  );
}
