// Agent profiles for run tests, stored as the profiles API stores them, and what a scripted
// model's calls reveal: which agent a call ran as (its system prompt), which tools it was given.
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { getDb } from "@/db/client";
import { updateThread } from "@/db/queries/threads";
import { agentProfiles, type ProfileDelegation } from "@/db/schema";
import { BUILTIN_TOOL_ALLOW, DEFAULT_DELEGATION } from "@/lib/agents/profiles";
import type { Actor } from "@/lib/auth/server";

export interface TestAgent {
  id: string;
  name?: string;
  systemPrompt?: string;
  model?: string | null;
  toolsAllow?: string[];
  delegation?: Partial<ProfileDelegation>;
  maxSteps?: number;
  briefShare?: number;
}

/** Stores the agents for `actor`; each may hand off unless its delegation says otherwise. */
export async function createAgents(actor: Actor, agents: TestAgent[]): Promise<void> {
  for (const agent of agents) {
    const name = agent.name ?? agent.id[0]?.toUpperCase() + agent.id.slice(1);
    await getDb()
      .insert(agentProfiles)
      .values({
        id: agent.id,
        userId: actor.id,
        name,
        systemPrompt: agent.systemPrompt ?? `You are ${name}, agent ${agent.id}.`,
        model: agent.model ?? null,
        maxSteps: agent.maxSteps ?? 25,
        ...(agent.briefShare !== undefined ? { briefShare: agent.briefShare } : {}),
        toolsAllow: agent.toolsAllow ?? [...BUILTIN_TOOL_ALLOW, "handoff_to_agent", "list_agents"],
        delegation: { ...DEFAULT_DELEGATION, canHandoff: true, ...agent.delegation },
      });
  }
}

export async function setThreadAgent(actor: Actor, threadId: string, profile: string) {
  await updateThread({ userId: actor.id, threadId, profile });
}

/** The system prompt a call was sent. */
export function systemOf(prompt: LanguageModelV3Prompt): string {
  return prompt
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n");
}

/** The tools a call was given; a call that was never made fails the test. */
export function toolNamesOf(call: LanguageModelV3CallOptions | undefined): string[] {
  if (!call) throw new Error("the model call was not made");
  return (call.tools ?? []).map((t) => t.name);
}
