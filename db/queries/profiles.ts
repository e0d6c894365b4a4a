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
