// The display names of a user's agent profiles, for a thread page that names the agents of its
// sessions and replies: one query for every slug on the page.
import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { getDb } from "../client";
import { agentProfiles } from "../schema";

/** The user's own profiles among `slugs` (never another user's with the same slug). */
export async function listProfileNames({
  userId,
  slugs,
}: {
  userId: string;
  slugs: readonly string[];
}): Promise<{ id: string; name: string }[]> {
  if (slugs.length === 0) return [];
  return getDb()
    .select({ id: agentProfiles.id, name: agentProfiles.name })
    .from(agentProfiles)
    .where(and(eq(agentProfiles.userId, userId), inArray(agentProfiles.id, [...slugs])));
}
