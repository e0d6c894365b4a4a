// A reset's lease and state (thread_resets): taking, reading, cancelling and releasing it, and
// the session and queued-message reads a reset makes around its commit.
import "server-only";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { SessionTrigger } from "@/core/types";
import { getDb } from "../client";
import { inOwnedThread, ownedThread } from "../owned";
import {
  type ChatSession,
  messages,
  type ResetState,
  sessions,
  type ThreadReset,
  threadResets,
  threads,
} from "../schema";
import { instanceIsLive } from "./instances";
import { endDraft } from "./reset-drafts";

/** How long a reset may hold its lease: a crashed reset never leaves a thread stuck for longer. */
const RESET_LEASE_MS = 2 * 60 * 1000;

export type LeaseResult =
  | { kind: "acquired"; reset: ThreadReset }
  | { kind: "committed"; reset: ThreadReset }
  | { kind: "busy"; reset: ThreadReset }
  /** A draft of this reset waits for the user: only its commit or cancel ends it. */
  | { kind: "awaiting_review"; reset: ThreadReset };

/** What a reset whose server died is recorded as (never half-committed: its commit is one transaction). */
export const INTERRUPTED_RESET = "interrupted: the server running the reset stopped";

/**
 * Takes the (thread, fromSession) reset lease for `instanceId`. A committed reset is returned as
 * such (retries and duplicates find the session it made); a live lease held by someone else is
 * `busy`; an expired, cancelled or failed one, or one whose instance is gone, is taken over.
 */
export async function acquireResetLease({
  userId,
  threadId,
  fromSession,
  trigger,
  instanceId,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
  trigger: SessionTrigger;
  instanceId: string;
}): Promise<LeaseResult | null> {
  const db = getDb();
  return db.transaction(async (tx) => {
    const [owned] = await tx
      .select({ id: threads.id })
      .from(threads)
      .where(ownedThread(userId, threadId));
    if (!owned) return null;
    const expires = new Date(Date.now() + RESET_LEASE_MS);
    const [inserted] = await tx
      .insert(threadResets)
      .values({
        threadId,
        fromSession,
        trigger,
        state: "running",
        leaseExpiresAt: expires,
        instanceId,
      })
      .onConflictDoNothing()
      .returning();
    if (inserted) return { kind: "acquired", reset: inserted };
    const [locked] = await tx
      .select({ reset: threadResets, live: instanceIsLive(threadResets.instanceId) })
      .from(threadResets)
      .where(and(eq(threadResets.threadId, threadId), eq(threadResets.fromSession, fromSession)))
      .for("update");
    if (!locked) throw new Error("reset row vanished while locked");
    const existing = locked.reset;
    if (existing.state === "committed") return { kind: "committed", reset: existing };
    if (existing.state === "awaiting_review") return { kind: "awaiting_review", reset: existing };
    if (existing.state === "running" && existing.leaseExpiresAt > new Date() && locked.live) {
      return { kind: "busy", reset: existing };
    }
    const [taken] = await tx
      .update(threadResets)
      .set({
        state: "running",
        trigger,
        leaseExpiresAt: expires,
        instanceId,
        reason: null,
        updatedAt: new Date(),
      })
      .where(and(eq(threadResets.threadId, threadId), eq(threadResets.fromSession, fromSession)))
      .returning();
    if (!taken) throw new Error("reset takeover returned nothing");
    return { kind: "acquired", reset: taken };
  });
}

export async function getReset({
  userId,
  threadId,
  fromSession,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
}): Promise<ThreadReset | null> {
  return (await getResetLiveness({ userId, threadId, fromSession }))?.reset ?? null;
}

/** The reset and whether it is still in flight: running, unexpired, its instance alive. */
export async function getResetLiveness({
  userId,
  threadId,
  fromSession,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
}): Promise<{ reset: ThreadReset; inFlight: boolean } | null> {
  const [row] = await getDb()
    .select({
      reset: threadResets,
      inFlight: sql<boolean>`(${threadResets.state} = 'running' and ${threadResets.leaseExpiresAt} > now() and ${instanceIsLive(threadResets.instanceId)})`,
    })
    .from(threadResets)
    .innerJoin(threads, eq(threads.id, threadResets.threadId))
    .where(
      and(
        eq(threadResets.threadId, threadId),
        eq(threadResets.fromSession, fromSession),
        eq(threads.userId, userId),
      ),
    );
  return row ? { reset: row.reset, inFlight: Boolean(row.inFlight) } : null;
}

/** Records every running reset whose instance is gone as failed: interrupted. */
export async function releaseDeadResets(): Promise<ThreadReset[]> {
  return getDb()
    .update(threadResets)
    .set({ state: "failed", reason: INTERRUPTED_RESET, updatedAt: new Date() })
    .where(
      and(eq(threadResets.state, "running"), sql`not ${instanceIsLive(threadResets.instanceId)}`),
    )
    .returning();
}

/** A reset of the thread that is running: its lease current, its instance alive. */
export function activeResetOf(threadId: string) {
  return and(
    eq(threadResets.threadId, threadId),
    eq(threadResets.state, "running"),
    sql`${threadResets.leaseExpiresAt} > now()`,
    instanceIsLive(threadResets.instanceId),
  );
}

/** The thread's reset in flight (running, lease unexpired), if any. */
export async function getActiveReset({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<ThreadReset | null> {
  const [row] = await getDb()
    .select({ reset: threadResets })
    .from(threadResets)
    .innerJoin(threads, eq(threads.id, threadResets.threadId))
    .where(and(activeResetOf(threadId), eq(threads.userId, userId)))
    .limit(1);
  return row?.reset ?? null;
}

/** Cancel succeeds while the reset is running or its draft awaits review; once committed it is too late. */
export async function cancelReset({
  userId,
  threadId,
  fromSession,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
}): Promise<{
  outcome: "cancelled" | "already_committed" | "not_running";
  reset: ThreadReset;
  /** The cancel ended a draft awaiting review (its queued messages are answered in session N). */
  draft?: boolean;
} | null> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .select({ reset: threadResets })
      .from(threadResets)
      .innerJoin(threads, eq(threads.id, threadResets.threadId))
      .where(
        and(
          eq(threadResets.threadId, threadId),
          eq(threadResets.fromSession, fromSession),
          eq(threads.userId, userId),
        ),
      )
      .for("update", { of: threadResets });
    if (!row) return null;
    const reset = row.reset;
    if (reset.state === "committed") return { outcome: "already_committed", reset };
    if (reset.state !== "running" && reset.state !== "awaiting_review") {
      return { outcome: "not_running", reset };
    }
    const [updated] = await tx
      .update(threadResets)
      .set({ state: "cancelled", reason: "cancelled by the user", updatedAt: new Date() })
      .where(and(eq(threadResets.threadId, threadId), eq(threadResets.fromSession, fromSession)))
      .returning();
    const draft = reset.state === "awaiting_review";
    if (draft) await endDraft(tx, { threadId, fromSession, state: "cancelled" });
    return { outcome: "cancelled", reset: updated ?? reset, draft };
  });
}

export async function finishResetWithoutCommit({
  threadId,
  fromSession,
  state,
  reason,
}: {
  threadId: string;
  fromSession: number;
  state: Extract<ResetState, "failed" | "cancelled">;
  reason: string;
}): Promise<void> {
  await getDb()
    .update(threadResets)
    .set({ state, reason, updatedAt: new Date() })
    .where(
      and(
        eq(threadResets.threadId, threadId),
        eq(threadResets.fromSession, fromSession),
        eq(threadResets.state, "running"),
      ),
    );
}

export async function getSessionById({
  userId,
  sessionId,
}: {
  userId: string;
  sessionId: string;
}): Promise<ChatSession | null> {
  const [row] = await getDb()
    .select({ session: sessions })
    .from(sessions)
    .innerJoin(threads, eq(threads.id, sessions.threadId))
    .where(and(eq(sessions.id, sessionId), eq(threads.userId, userId)));
  return row?.session ?? null;
}

/** Sum of cached token estimates of a session's messages after `afterSeq` (O(new messages)). */
export async function sumTokensSince({
  sessionId,
  afterSeq,
}: {
  sessionId: string;
  afterSeq: number;
}): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`coalesce(sum(${messages.tokenCount}), 0)` })
    .from(messages)
    .where(
      and(
        eq(messages.sessionId, sessionId),
        sql`${messages.seq} > ${afterSeq}`,
        eq(messages.compacted, false),
      ),
    );
  return Number(row?.n ?? 0);
}

/** Moves one queued message into a session (a queued insert that raced the reset commit). */
export async function moveMessagesToSession({
  userId,
  threadId,
  ids,
  sessionId,
}: {
  userId: string;
  threadId: string;
  ids: string[];
  sessionId: string;
}): Promise<void> {
  if (ids.length === 0) return;
  await getDb()
    .update(messages)
    .set({ sessionId })
    .where(
      and(
        eq(messages.threadId, threadId),
        inArray(messages.id, ids),
        inOwnedThread(userId, messages.threadId),
      ),
    );
}
