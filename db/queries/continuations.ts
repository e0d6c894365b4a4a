import "server-only";
import { and, eq } from "drizzle-orm";
import { BatonError } from "@/core/errors";
import { getDb } from "../client";
import { ownedThread } from "../owned";
import { handoffRevisions, sessions, threads } from "../schema";
import { lockHandoff, recordAcceptance } from "./handoff-writes";
import { pinHandoffItems } from "./pins";

/**
 * Starts a thread from a stored handoff, in one transaction: the thread, its session 1 (trigger
 * `continuation`, starting from the handoff's current revision), its pins (the revision's
 * must_preserve) and the acceptance receipt with receiver `session:<id>`. No message is written: the thread waits for its user.
 *
 * Retry-safe by `threadId`: when that thread already exists for this user and its session 1
 * started from this handoff, the call answers with it instead of failing or making another.
 */
export async function startContinuationThread({
  ownerId,
  key,
  contentId,
  threadId,
  sessionId,
  title,
  model,
  profile,
}: {
  ownerId: string;
  key: string;
  /** The revision the user chose; a newer one since is `conflict:stale_revision`. */
  contentId?: string;
  threadId: string;
  sessionId: string;
  title: string;
  model: string;
  profile: string;
}): Promise<{ threadId: string; created: boolean }> {
  return getDb().transaction(async (tx) => {
    const current = await lockHandoff(tx, { ownerId, key });
    if (!current) throw new BatonError("not_found:handoff", "Handoff not found.");

    const [earlier] = await tx
      .select({ revisionId: sessions.handoffRevisionId, handoffId: handoffRevisions.handoffId })
      .from(threads)
      .innerJoin(sessions, and(eq(sessions.threadId, threads.id), eq(sessions.number, 1)))
      .leftJoin(handoffRevisions, eq(handoffRevisions.id, sessions.handoffRevisionId))
      .where(ownedThread(ownerId, threadId));
    if (earlier) {
      if (earlier.handoffId === current.id) return { threadId, created: false };
      throw new BatonError("conflict:thread_exists", "That thread already exists.");
    }

    if (contentId !== undefined && contentId !== current.contentId) {
      throw new BatonError(
        "conflict:stale_revision",
        `The handoff has changed since (now revision ${current.revision}); reload and choose again.`,
      );
    }
    if (current.state === "cancelled") {
      throw new BatonError("conflict:handoff_cancelled", "That handoff was cancelled.");
    }
    const [revision] = await tx
      .select({ id: handoffRevisions.id, artifact: handoffRevisions.artifact })
      .from(handoffRevisions)
      .where(
        and(
          eq(handoffRevisions.handoffId, current.id),
          eq(handoffRevisions.revision, current.revision),
        ),
      );
    if (!revision) throw new Error("current handoff revision missing from history");

    const now = new Date();
    const [thread] = await tx
      .insert(threads)
      .values({
        id: threadId,
        userId: ownerId,
        title,
        model,
        profile,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: threads.id })
      .returning({ id: threads.id });
    // Another user's thread id: answer as if it were any other taken id, revealing nothing.
    if (!thread) throw new BatonError("conflict:thread_exists", "That thread already exists.");
    await tx.insert(sessions).values({
      id: sessionId,
      threadId,
      number: 1,
      model,
      profile,
      trigger: "continuation",
      handoffRevisionId: revision.id,
    });
    // The new thread pins what the handoff it continues carried, so its resets keep carrying it.
    const carried = revision.artifact.must_preserve;
    const texts = Array.isArray(carried) ? carried.filter((p) => typeof p === "string") : [];
    await pinHandoffItems(tx, { userId: ownerId, threadId, texts });
    await recordAcceptance(tx, {
      ownerId,
      key,
      contentId: current.contentId,
      receiver: `session:${sessionId}`,
    });
    return { threadId, created: true };
  });
}
