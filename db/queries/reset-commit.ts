// A reset's commit (docs/context-engine.md): one transaction that ends session N, stores its
// handoff as revision N, starts N+1, moves the waiting messages and releases the lease.
import "server-only";
import { and, eq, gte, or } from "drizzle-orm";
import type { SessionTrigger } from "@/core/types";
import { getDb } from "../client";
import type { Executor } from "../executor";
import { ownedThread } from "../owned";
import {
  type ChatSession,
  messages,
  type RedactionRecord,
  type ResetStats,
  runs,
  sessions,
  type ThreadReset,
  threadResets,
  threads,
} from "../schema";
import { recordAcceptance, type StoredHandoffWrite, storeHandoffWrite } from "./handoff-writes";
import { pinHandoffItems } from "./pins";
import { endDraft } from "./reset-drafts";

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
    await pinHandoffItems(tx, { userId, threadId, texts: input.handoff.artifact.must_preserve });

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
