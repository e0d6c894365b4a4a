import "server-only";
import { and, asc, eq, gte, inArray, or, sql } from "drizzle-orm";
import type { SessionTrigger } from "@/core/types";
import { getDb } from "../client";
import type { Executor } from "../executor";
import { inOwnedThread, ownedThread } from "../owned";
import {
  type ChatSession,
  messages,
  type RedactionRecord,
  type ResetState,
  type ResetStats,
  runs,
  sessions,
  type ThreadReset,
  threadResets,
  threads,
} from "../schema";
import { recordAcceptance, type StoredHandoffWrite, storeHandoffWrite } from "./handoff-writes";
import { instanceIsLive } from "./instances";
import { pinHandoffItems } from "./pins";
import { endDraft } from "./reset-drafts";

/** How long a reset may hold its lease: a crashed reset never leaves a thread stuck for longer. */
export const RESET_LEASE_MS = 2 * 60 * 1000;

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

export interface CommitResetInput {
  userId: string;
  threadId: string;
  from: ChatSession;
  endTokens: number;
  endUtilization: number;
  trigger: SessionTrigger;
  model: string;
  profile: string;
  /** Prepared (redacted, rendered) by the caller: lib/handoff/write.ts commitResetHandoff. */
  handoff: Omit<StoredHandoffWrite, "ownerId" | "key" | "revision" | "threadId" | "sessionNumber">;
  /** Seq of the message that triggered the reset; it and every later message of session N move. */
  moveFromSeq: number | null;
  /** The instance that took the lease: a lease taken over meanwhile is no longer ours. */
  instanceId: string;
  /** An agent handoff: the thread's profile becomes this one in the same commit. */
  threadProfile?: string;
  /** What the reset measured, stored on the session it starts. */
  resetStats?: ResetStats;
  /** An agent handoff: the run's handoff count and step budget, in the same commit. */
  run?: { id: string; handoffCount: number; maxSteps: number };
  /** Commits the reviewed draft of this reset: the reset awaits review instead of holding a lease. */
  fromDraft?: boolean;
  /** More writes that must land with the commit or not at all (a reviewed draft's pins). */
  alsoInCommit?: (tx: Executor) => Promise<void>;
}

/** Where a reset's handoff is stored: revision N of the thread's own key, from session N. */
export function resetHandoffEnvelope({
  userId,
  threadId,
  from,
}: Pick<CommitResetInput, "userId" | "threadId" | "from">) {
  return {
    ownerId: userId,
    key: threadId,
    revision: from.number,
    threadId,
    sessionNumber: from.number,
  };
}

export type CommitResetResult =
  | {
      outcome: "committed";
      session: ChatSession;
      handoffRevisionId: string;
      contentId: string;
      revision: number;
      movedMessageIds: string[];
      redactions: RedactionRecord[];
    }
  | { outcome: "cancelled" | "not_running"; reset: ThreadReset };

/**
 * The reset's commit, in one transaction holding the thread row lock message inserts also take:
 * end session N, store handoff revision N, start N+1, move the triggering and queued messages,
 * record the acceptance and release the lease. No model call happens inside.
 */
export async function commitReset(input: CommitResetInput): Promise<CommitResetResult> {
  const { userId, threadId, from } = input;
  return getDb().transaction(async (tx) => {
    const [thread] = await tx
      .select({ id: threads.id })
      .from(threads)
      .where(ownedThread(userId, threadId))
      .for("update");
    if (!thread) throw new Error("thread gone during reset");
    const [reset] = await tx
      .select()
      .from(threadResets)
      .where(and(eq(threadResets.threadId, threadId), eq(threadResets.fromSession, from.number)))
      .for("update");
    if (!reset) throw new Error("reset row missing at commit");
    const ours = input.fromDraft
      ? reset.state === "awaiting_review"
      : reset.state === "running" && reset.instanceId === input.instanceId;
    if (!ours) {
      return { outcome: reset.state === "cancelled" ? "cancelled" : "not_running", reset };
    }
    if (input.fromDraft) {
      await endDraft(tx, { threadId, fromSession: from.number, state: "committed" });
    }
    await input.alsoInCommit?.(tx);
    if (input.threadProfile !== undefined) {
      await tx
        .update(threads)
        .set({ profile: input.threadProfile, updatedAt: new Date() })
        .where(eq(threads.id, threadId));
    }
    if (input.run) {
      await tx
        .update(runs)
        .set({
          handoffCount: input.run.handoffCount,
          maxSteps: input.run.maxSteps,
          updatedAt: new Date(),
        })
        .where(and(eq(runs.id, input.run.id), eq(runs.userId, userId)));
    }

    await tx
      .update(sessions)
      .set({
        endedAt: new Date(),
        endTokens: input.endTokens,
        endUtilization: input.endUtilization,
      })
      .where(eq(sessions.id, from.id));

    const written = await storeHandoffWrite(tx, {
      ...input.handoff,
      ...resetHandoffEnvelope(input),
    });
    // What the brief carries is pinned from now on, with the commit (a tombstone stays unpinned).
    await pinHandoffItems({ userId, threadId, texts: input.handoff.artifact.must_preserve }, tx);

    const [created] = await tx
      .insert(sessions)
      .values({
        threadId,
        number: from.number + 1,
        model: input.model,
        profile: input.profile,
        trigger: input.trigger,
        handoffRevisionId: written.revision.id,
        resetStats: input.resetStats ?? null,
      })
      .onConflictDoNothing({ target: [sessions.threadId, sessions.number] })
      .returning();
    let session = created;
    if (!session) {
      [session] = await tx
        .select()
        .from(sessions)
        .where(and(eq(sessions.threadId, threadId), eq(sessions.number, from.number + 1)));
    }
    if (!session) throw new Error("session N+1 neither created nor found");

    const moveCondition =
      input.moveFromSeq === null
        ? eq(messages.status, "queued")
        : or(gte(messages.seq, input.moveFromSeq), eq(messages.status, "queued"));
    const moved = await tx
      .update(messages)
      .set({ sessionId: session.id, updatedAt: new Date() })
      .where(
        and(
          eq(messages.threadId, threadId),
          eq(messages.sessionId, from.id),
          eq(messages.role, "user"),
          moveCondition,
        ),
      )
      .returning({ id: messages.id, seq: messages.seq });
    moved.sort((a, b) => a.seq - b.seq);

    await recordAcceptance(tx, {
      ownerId: userId,
      key: threadId,
      contentId: written.handoff.contentId,
      receiver: `session:${session.id}`,
    });

    await tx
      .update(threadResets)
      .set({ state: "committed", newSessionId: session.id, updatedAt: new Date() })
      .where(and(eq(threadResets.threadId, threadId), eq(threadResets.fromSession, from.number)));

    return {
      outcome: "committed",
      session,
      handoffRevisionId: written.revision.id,
      contentId: written.revision.contentId,
      revision: written.revision.revision,
      movedMessageIds: moved.map((m) => m.id),
      redactions: written.revision.redactions,
    };
  });
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

export async function listQueuedMessageIds({
  userId,
  threadId,
  sessionId,
}: {
  userId: string;
  threadId: string;
  sessionId: string;
}): Promise<string[]> {
  const rows = await getDb()
    .select({ id: messages.id })
    .from(messages)
    .innerJoin(threads, eq(threads.id, messages.threadId))
    .where(
      and(
        eq(messages.threadId, threadId),
        eq(messages.sessionId, sessionId),
        eq(messages.status, "queued"),
        eq(threads.userId, userId),
      ),
    )
    .orderBy(asc(messages.seq));
  return rows.map((r) => r.id);
}
