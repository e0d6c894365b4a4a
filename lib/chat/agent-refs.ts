// Agents as a thread shows them: the built-in Default, and the name a slug reads as when the
// owner has no profile row for it (deleted, or never created). Pure; the server resolves the
// names (lib/chat/agent-names.ts), the list reads them (lib/chat/format-agents.ts).
import type { AgentRef } from "./types";

/** The built-in profile's slug; it has no row in agent_profiles. */
export const DEFAULT_AGENT_ID = "default";

export const DEFAULT_AGENT: AgentRef = { id: DEFAULT_AGENT_ID, name: "Default" };

export function isDefaultAgent(agent: AgentRef): boolean {
  return agent.id === DEFAULT_AGENT_ID;
}

/** `slug` by its owner's name for it: "Default" for the built-in one, the slug when unnamed. */
export function agentRefOf(slug: string, names: ReadonlyMap<string, string>): AgentRef {
  if (slug === DEFAULT_AGENT_ID) return DEFAULT_AGENT;
  return { id: slug, name: names.get(slug) ?? slug };
}
