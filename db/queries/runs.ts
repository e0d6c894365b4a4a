import "server-only";
import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import { getDb } from "../client";
import { inOwnedThread } from "../owned";
import { type Message, messageColumns, messages, type Run, type RunStatus, runs } from "../schema";
import { grantToolForSession } from "./tool-grants";

// Runs: one turn of model steps and tool calls, possibly spanning sessions. The row carries the
// step count the limit is checked against, the sessions spanned, and — while it waits for the
// user — the assistant message whose tool calls await approval.

const ownedRun = (userId: string) => inOwnedThread(userId, runs.threadId);

/** Where a claimed run starts: the session its request is answered in (before any step). */
export async function placeRunStart({
  runId,
  sessionId,
}: {
  runId: string;
  sessionId: string;
}): Promise<void> {
  await getDb()
    .update(runs)
    .set({
      firstSessionId: sessionId,
      lastSessionId: sessionId,
      sessionIds: [sessionId],
      updatedAt: new Date(),
    })
    .where(and(eq(runs.id, runId), eq(runs.stepCount, 0)));
}

/** After a step or a session change: the step count, the session now running, its message. */
export async function recordRunProgress({
  userId,
  runId,
  stepCount,
  sessionId,
  messageId,
}: {
  userId: string;
  runId: string;
  stepCount: number;
  sessionId: string;
  messageId: string;
}): Promise<void> {
  await getDb()
    .update(runs)
    .set({
      stepCount,
      lastSessionId: sessionId,
      messageId,
      // Append the session once: a run re-enters no session, but progress is recorded per step.
      sessionIds: sql`case when ${runs.sessionIds} @> ${JSON.stringify([sessionId])}::jsonb then ${runs.sessionIds} else ${runs.sessionIds} || ${JSON.stringify([sessionId])}::jsonb end`,
      updatedAt: new Date(),
    })
    .where(and(eq(runs.id, runId), ownedRun(userId)));
}

/** Ends the run (or parks it, for `awaiting_approval`). Only a running run changes. */
export async function finishRun({
  userId,
  runId,
  status,
  failureReason = null,
}: {
  userId: string;
  runId: string;
  status: Exclude<RunStatus, "running">;
  failureReason?: string | null;
}): Promise<Run | null> {
  const now = new Date();
  const [row] = await getDb()
    .update(runs)
    .set({
      status,
      failureReason,
      updatedAt: now,
      endedAt: status === "awaiting_approval" || status === "awaiting_review" ? null : now,
    })
    .where(and(eq(runs.id, runId), eq(runs.status, "running"), ownedRun(userId)))
    .returning();
  return row ?? null;
}

/** The thread's run waiting for an approval, if any (the newest, should there be several). */
export async function getAwaitingRun({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<Run | null> {
  const [row] = await getDb()
    .select()
    .from(runs)
    .where(and(eq(runs.threadId, threadId), eq(runs.status, "awaiting_approval"), ownedRun(userId)))
    .orderBy(desc(runs.startedAt))
    .limit(1);
  return row ?? null;
}

export interface ApprovalSettlement {
  parts: unknown[];
  tokenCount: number;
  /** Tools to allow for the rest of the message's session. */
  grants: string[];
}

export type ClaimResult =
  | { claimed: true; run: Run; message: Message }
  | { claimed: false; run: Run | null; message: Message | null };

/**
 * Answers a waiting run's approvals exactly once: under the run's row lock, only while it is
 * still `awaiting_approval`, the message's parts are settled, the grants written and the run set
 * running again. A second answer (another tab) finds it no longer waiting and gets what the
 * first one decided, read from the stored message.
 */
export async function claimAwaitingRun({
  userId,
  threadId,
  runId,
  instanceId,
  settle,
}: {
  userId: string;
  threadId: string;
  runId: string;
  /** The instance that goes on with the run (its server may differ from the one that parked it). */
  instanceId: string;
  settle: (message: Message) => ApprovalSettlement;
}): Promise<ClaimResult> {
  return getDb().transaction(async (tx) => {
    const [run] = await tx
      .select()
      .from(runs)
      .where(and(eq(runs.id, runId), eq(runs.threadId, threadId), ownedRun(userId)))
      .for("update");
    if (!run) return { claimed: false, run: null, message: null };
    const [message] = run.messageId
      ? await tx
          .select(messageColumns)
          .from(messages)
          .where(and(eq(messages.threadId, threadId), eq(messages.id, run.messageId)))
      : [];
    if (run.status !== "awaiting_approval" || !message) {
      return { claimed: false, run, message: message ?? null };
    }
    const settled = settle(message);
    const [updated] = await tx
      .update(messages)
      .set({ parts: settled.parts, tokenCount: settled.tokenCount, updatedAt: new Date() })
      .where(and(eq(messages.threadId, threadId), eq(messages.id, message.id)))
      .returning(messageColumns);
    for (const tool of settled.grants) {
      await grantToolForSession(tx, { sessionId: message.sessionId, tool });
    }
    const [running] = await tx
      .update(runs)
      .set({
        status: "running",
        instanceId,
        updatedAt: new Date(),
        // The answer streams anew, continuing the message from the parts it holds now.
        streamId: crypto.randomUUID(),
        streamMessageId: message.id,
        streamBaseParts: settled.parts.length,
      })
      .where(eq(runs.id, run.id))
      .returning();
    return { claimed: true, run: running ?? run, message: updated ?? message };
  });
}

/**
 * Ends every run of the thread still waiting for approval, settling its message's pending
 * calls with `settle` (denied, not run) — when the user sends a new message instead, or a reset
 * ends the session they belong to. Returns the runs ended.
 */
export async function settleAwaitingRuns({
  userId,
  threadId,
  settle,
  failureReason,
}: {
  userId: string;
  threadId: string;
  settle: (message: Message) => Pick<ApprovalSettlement, "parts" | "tokenCount">;
  failureReason: string;
}): Promise<Run[]> {
  return getDb().transaction(async (tx) => {
    const waiting = await tx
      .select()
      .from(runs)
      .where(
        and(eq(runs.threadId, threadId), eq(runs.status, "awaiting_approval"), ownedRun(userId)),
      )
      .for("update");
    const ended: Run[] = [];
    for (const run of waiting) {
      if (run.messageId) {
        const [message] = await tx
          .select(messageColumns)
          .from(messages)
          .where(and(eq(messages.threadId, threadId), eq(messages.id, run.messageId)));
        if (message) {
          const settled = settle(message);
          await tx
            .update(messages)
            .set({ parts: settled.parts, tokenCount: settled.tokenCount, updatedAt: new Date() })
            .where(and(eq(messages.threadId, threadId), eq(messages.id, message.id)));
        }
      }
      const now = new Date();
      const [row] = await tx
        .update(runs)
        .set({ status: "stopped", failureReason, updatedAt: now, endedAt: now })
        .where(eq(runs.id, run.id))
        .returning();
      if (row) ended.push(row);
    }
    return ended;
  });
}

/**
 * Whether the answer to the message at `seq` runs into another session: a message after it is
 * stored in a session other than `sessionId` (a reset in the middle of its run). Editing or
 * regenerating such a message cannot be undone cleanly, since the workspace is not rolled back.
 */
export async function answerSpansSessions({
  userId,
  threadId,
  seq,
  sessionId,
}: {
  userId: string;
  threadId: string;
  seq: number;
  sessionId: string;
}): Promise<boolean> {
  const [row] = await getDb()
    .select({ seq: messages.seq })
    .from(messages)
    .where(
      and(
        eq(messages.threadId, threadId),
        gt(messages.seq, seq),
        ne(messages.sessionId, sessionId),
        inOwnedThread(userId, messages.threadId),
      ),
    )
    .limit(1);
  return row !== undefined;
}
