// Handoffs drafted for review (reset_drafts), one per (thread, fromSession). Storing a draft ends
// the reset's lease (thread_resets becomes `awaiting_review`); a commit, cancel or expiry ends
// the draft together with its reset row, in one transaction.
import "server-only";
import { and, desc, eq, lte, sql } from "drizzle-orm";
import type { SessionTrigger } from "@/core/types";
import { getDb } from "../client";
import type { Executor } from "../executor";
import {
  type DroppedRecord,
  type RedactionRecord,
  type ResetDraft,
  type ResetDraftContext,
  type ResetDraftState,
  type ResetStats,
  resetDrafts,
  threadResets,
  threads,
} from "../schema";

/** How a draft ended. */
export type DraftEnd = Exclude<ResetDraftState, "awaiting_review">;

export interface StoreDraftInput {
  threadId: string;
  fromSession: number;
  trigger: SessionTrigger;
  /** The instance holding the reset's lease: a lease taken over meanwhile is no longer ours. */
  instanceId: string;
  artifact: Record<string, unknown>;
  dropped: DroppedRecord[];
  redactions: RedactionRecord[];
  source: ResetStats["source"];
  writerTokens: number;
  context: ResetDraftContext;
  expiresAt: Date;
}

/**
 * Stores the draft and releases the lease in one step; null when the lease is no longer ours
 * (cancelled or taken over while the handoff was written).
 */
export async function storeResetDraft(input: StoreDraftInput): Promise<ResetDraft | null> {
  const { threadId, fromSession } = input;
  return getDb().transaction(async (tx) => {
    const [reset] = await tx
      .select()
      .from(threadResets)
      .where(and(eq(threadResets.threadId, threadId), eq(threadResets.fromSession, fromSession)))
      .for("update");
    if (reset?.state !== "running" || reset.instanceId !== input.instanceId) return null;
    const values = {
      trigger: input.trigger,
      state: "awaiting_review" as const,
      artifact: input.artifact,
      dropped: input.dropped,
      redactions: input.redactions,
      source: input.source,
      writerTokens: input.writerTokens,
      context: input.context,
      expiresAt: input.expiresAt,
    };
    // A draft cancelled earlier for the same session is replaced: it was never committed.
    const [draft] = await tx
      .insert(resetDrafts)
      .values({ threadId, fromSession, ...values })
      .onConflictDoUpdate({
        target: [resetDrafts.threadId, resetDrafts.fromSession],
        set: { ...values, createdAt: new Date(), updatedAt: new Date() },
      })
      .returning();
    await tx
      .update(threadResets)
      .set({ state: "awaiting_review", reason: null, updatedAt: new Date() })
      .where(and(eq(threadResets.threadId, threadId), eq(threadResets.fromSession, fromSession)));
    return draft ?? null;
  });
}

export async function getResetDraft({
  userId,
  threadId,
  fromSession,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
}): Promise<ResetDraft | null> {
  const [row] = await getDb()
    .select({ draft: resetDrafts })
    .from(resetDrafts)
    .innerJoin(threads, eq(threads.id, resetDrafts.threadId))
    .where(
      and(
        eq(resetDrafts.threadId, threadId),
        eq(resetDrafts.fromSession, fromSession),
        eq(threads.userId, userId),
      ),
    );
  return row?.draft ?? null;
}

/** The thread's draft awaiting review, if any (at most one: it holds the current session). */
export async function getAwaitingDraft({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<ResetDraft | null> {
  const [row] = await getDb()
    .select({ draft: resetDrafts })
    .from(resetDrafts)
    .innerJoin(threads, eq(threads.id, resetDrafts.threadId))
    .where(
      and(
        eq(resetDrafts.threadId, threadId),
        eq(resetDrafts.state, "awaiting_review"),
        eq(threads.userId, userId),
      ),
    )
    .orderBy(desc(resetDrafts.fromSession))
    .limit(1);
  return row?.draft ?? null;
}

/** Ends an awaiting draft inside the caller's transaction (the commit's or the cancel's). */
export async function endDraft(
  tx: Executor,
  { threadId, fromSession, state }: { threadId: string; fromSession: number; state: DraftEnd },
): Promise<void> {
  await tx
    .update(resetDrafts)
    .set({ state, updatedAt: new Date() })
    .where(
      and(
        eq(resetDrafts.threadId, threadId),
        eq(resetDrafts.fromSession, fromSession),
        eq(resetDrafts.state, "awaiting_review"),
      ),
    );
}

/**
 * How the thread's newest draft ended; null while it awaits review (or the thread never had one).
 * Recovery resumes the runs a draft parked once it ended, whichever server ended it.
 */
export async function newestDraftEnd({ threadId }: { threadId: string }): Promise<DraftEnd | null> {
  const [row] = await getDb()
    .select({ state: resetDrafts.state })
    .from(resetDrafts)
    .where(eq(resetDrafts.threadId, threadId))
    .orderBy(desc(resetDrafts.fromSession))
    .limit(1);
  return !row || row.state === "awaiting_review" ? null : row.state;
}

const DRAFT_EXPIRED = "the draft waited too long for review";

/**
 * Expires every draft past its time (of one thread, or all): the draft becomes `expired` and its
 * reset `cancelled`, so the thread goes on in its session. Returns what expired, with its owner.
 */
export async function expireDueDrafts(
  scope: { threadId?: string } = {},
): Promise<(ResetDraft & { userId: string })[]> {
  const isDue = and(
    eq(resetDrafts.state, "awaiting_review"),
    lte(resetDrafts.expiresAt, sql`now()`),
    scope.threadId ? eq(resetDrafts.threadId, scope.threadId) : undefined,
  );
  // Checked on every touch of a thread: the common case (nothing due) is one indexed read.
  const [any] = await getDb()
    .select({ threadId: resetDrafts.threadId })
    .from(resetDrafts)
    .where(isDue)
    .limit(1);
  if (!any) return [];
  return getDb().transaction(async (tx) => {
    const due = await tx
      .update(resetDrafts)
      .set({ state: "expired", updatedAt: new Date() })
      .where(isDue)
      .returning();
    const expired: (ResetDraft & { userId: string })[] = [];
    for (const draft of due) {
      const [row] = await tx
        .update(threadResets)
        .set({ state: "cancelled", reason: DRAFT_EXPIRED, updatedAt: new Date() })
        .where(
          and(
            eq(threadResets.threadId, draft.threadId),
            eq(threadResets.fromSession, draft.fromSession),
            eq(threadResets.state, "awaiting_review"),
          ),
        )
        .returning({ threadId: threadResets.threadId });
      const [owner] = await tx
        .select({ userId: threads.userId })
        .from(threads)
        .where(eq(threads.id, draft.threadId));
      if (row && owner) expired.push({ ...draft, userId: owner.userId });
    }
    return expired;
  });
}
