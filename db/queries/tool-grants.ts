import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "../client";
import type { Executor } from "../executor";
import { sessions, threads, toolGrants } from "../schema";

// "Allow for this session" grants. Keyed by session, so every session boundary (reset,
// continuation, agent handoff) ends them without any clean-up: resuming is not permission.

const ownedSession = (userId: string) =>
  sql`exists (select 1 from ${sessions} join ${threads} on ${threads.id} = ${sessions.threadId} where ${sessions.id} = ${toolGrants.sessionId} and ${threads.userId} = ${userId})`;

/** The tools the user allowed for the whole session. */
export async function listSessionGrants({
  userId,
  sessionId,
}: {
  userId: string;
  sessionId: string;
}): Promise<Set<string>> {
  const rows = await getDb()
    .select({ tool: toolGrants.tool })
    .from(toolGrants)
    .where(and(eq(toolGrants.sessionId, sessionId), ownedSession(userId)));
  return new Set(rows.map((r) => r.tool));
}

/** Records a grant; granting twice is a no-op. The caller has checked the session's owner. */
export async function grantToolForSession(
  db: Executor,
  { sessionId, tool }: { sessionId: string; tool: string },
): Promise<void> {
  await db.insert(toolGrants).values({ sessionId, tool }).onConflictDoNothing();
}
