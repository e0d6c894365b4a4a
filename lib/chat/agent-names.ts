// Names for the agents a thread page mentions (its sessions' profiles, its replies' writers),
// from the thread owner's profiles, read in one query per page.
import "server-only";
import { listProfileNames } from "@/db/queries/profile-names";
import { agentRefOf, DEFAULT_AGENT_ID } from "./agent-refs";
import type { AgentRef } from "./types";

export type AgentNames = (slug: string) => AgentRef;

/** A lookup for `slugs` as the owner names them; the built-in `default` needs no query. */
export async function loadAgentNames({
  userId,
  slugs,
}: {
  userId: string;
  slugs: Iterable<string>;
}): Promise<AgentNames> {
  const wanted = new Set(slugs);
  wanted.delete(DEFAULT_AGENT_ID);
  const rows = await listProfileNames({ userId, slugs: [...wanted] });
  const names = new Map(rows.map((row) => [row.id, row.name]));
  return (slug) => agentRefOf(slug, names);
}
