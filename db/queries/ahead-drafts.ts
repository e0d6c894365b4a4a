// A session's handoff drafted ahead (ahead_drafts, docs/context-engine.md "Drafting ahead"):
// at most one per session, only while the session is open, always scoped to the thread's owner.
import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb } from "../client";
import { inOwnedThread } from "../owned";
import { type AheadDraft, aheadDrafts, type ResetStats, sessions, threads } from "../schema";

/** The session's draft ahead, or null (none, or not the user's session). */
export async function getAheadDraft({
  userId,
  sessionId,
}: {
  userId: string;
  sessionId: string;
}): Promise<AheadDraft | null> {
  const [row] = await getDb()
    .select({ draft: aheadDrafts })
    .from(aheadDrafts)
    .innerJoin(threads, eq(threads.id, aheadDrafts.threadId))
    .where(and(eq(aheadDrafts.sessionId, sessionId), eq(threads.userId, userId)));
  return row?.draft ?? null;
}

export interface AheadDraftValues {
  artifact: Record<string, unknown>;
  source: ResetStats["source"];
  writerTokens: number;
  throughSeq: number;
  modelId: string;
}

/**
 * Stores (or replaces) the session's draft. Nothing is stored for a session that has ended or
 * is not the user's: a draft finished after its reset committed serves no one. Returns whether
 * it was stored.
 */
export async function saveAheadDraft({
  userId,
  sessionId,
  values,
}: {
  userId: string;
  sessionId: string;
  values: AheadDraftValues;
}): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    // Shared lock: a reset's commit (which ends the session) waits for this insert, or this
    // insert sees the session ended.
    const [open] = await tx
      .select({ threadId: sessions.threadId })
      .from(sessions)
      .innerJoin(threads, eq(threads.id, sessions.threadId))
      .where(and(eq(sessions.id, sessionId), eq(threads.userId, userId), isNull(sessions.endedAt)))
      .for("share", { of: sessions });
    if (!open) return false;
    await tx
      .insert(aheadDrafts)
      .values({ sessionId, threadId: open.threadId, ...values })
      .onConflictDoUpdate({
        target: aheadDrafts.sessionId,
        set: { ...values, updatedAt: sql`now()` },
      });
    return true;
  });
}

/** Removes the session's draft and returns it: a reset takes it once. */
export async function takeAheadDraft({
  userId,
  sessionId,
}: {
  userId: string;
  sessionId: string;
}): Promise<AheadDraft | null> {
  const [row] = await getDb()
    .delete(aheadDrafts)
    .where(and(eq(aheadDrafts.sessionId, sessionId), inOwnedThread(userId, aheadDrafts.threadId)))
    .returning();
  return row ?? null;
}
