import "server-only";
import { and, eq, isNull, or } from "drizzle-orm";
import { getDb } from "../client";
import { type AgentProfile, agentProfiles } from "../schema";

/** A profile the user may use: one of its own, or a built-in one stored without an owner. */
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
    .where(
      and(
        eq(agentProfiles.id, profileId),
        or(eq(agentProfiles.userId, userId), isNull(agentProfiles.userId)),
      ),
    );
  return row ?? null;
}
