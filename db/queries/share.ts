// Share links: the owner turns a thread's read-only link on and off; anyone holding the token
// can look the thread up (the token is the only capability, so it is never guessable).
import "server-only";
import { eq, sql } from "drizzle-orm";
import { getDb } from "../client";
import { ownedThread } from "../owned";
import { type Thread, threads } from "../schema";

/**
 * Shares the thread with `token` unless it is already shared, in which case its existing token
 * stays (sharing twice hands out one link). Null when the thread is not the user's.
 */
export async function shareThread({
  userId,
  threadId,
  token,
}: {
  userId: string;
  threadId: string;
  token: string;
}): Promise<{ token: string; created: boolean } | null> {
  const [row] = await getDb()
    .update(threads)
    .set({
      shareToken: sql`coalesce(${threads.shareToken}, ${token})`,
      sharedAt: sql`coalesce(${threads.sharedAt}, now())`,
    })
    .where(ownedThread(userId, threadId))
    .returning({ token: threads.shareToken });
  if (!row?.token) return null;
  return { token: row.token, created: row.token === token };
}

/** Revokes the link; a later share makes a new token. False when the thread is not the user's. */
export async function unshareThread({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<boolean> {
  const rows = await getDb()
    .update(threads)
    .set({ shareToken: null, sharedAt: null })
    .where(ownedThread(userId, threadId))
    .returning({ id: threads.id });
  return rows.length > 0;
}

/** The thread a share token opens, whoever asks; null for an unknown or revoked token. */
export async function getSharedThreadByToken({ token }: { token: string }): Promise<Thread | null> {
  const [row] = await getDb().select().from(threads).where(eq(threads.shareToken, token));
  return row ?? null;
}
