import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "../client";
import { type AgentProfile, agentProfiles } from "../schema";

/** The user's own profile with this slug (profiles are keyed by owner and slug). */
export async function getProfile({
  userId,
  profileId,
}: {
  userId: string;
  profileId: string;
}): Promise<AgentProfile | null> {
  const [row] = await getDb()
    .select()
    .from(agentProfiles)
    .where(and(eq(agentProfiles.userId, userId), eq(agentProfiles.id, profileId)));
  return row ?? null;
}

/** Every profile the user owns, by name. */
export async function listProfiles({ userId }: { userId: string }): Promise<AgentProfile[]> {
  return getDb()
    .select()
    .from(agentProfiles)
    .where(eq(agentProfiles.userId, userId))
    .orderBy(agentProfiles.name, agentProfiles.id);
}
