import "server-only";
import { and, asc, desc, eq, isNotNull, like, lte, sql } from "drizzle-orm";
import { getDb } from "../client";
import { ownedThread } from "../owned";
import { type ChatSession, messages, sessions, type Thread, threads } from "../schema";
import { mayHoldOrphans } from "./run-recovery";

export async function getCurrentSession({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<ChatSession | null> {
  const [row] = await getDb()
    .select({ session: sessions })
    .from(sessions)
    .innerJoin(threads, eq(threads.id, sessions.threadId))
    .where(and(eq(sessions.threadId, threadId), eq(threads.userId, userId)))
    .orderBy(desc(sessions.number))
    .limit(1);
  return row?.session ?? null;
}

/**
 * The user's thread with its newest session, in one read (null when it is not theirs), and
 * whether it may hold something to recover (threadMayHoldOrphans, asked on the way).
 */
export async function getThreadWithSession({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<{ thread: Thread; session: ChatSession | null; mayHoldOrphans: boolean } | null> {
  const [row] = await getDb()
    .select({
      thread: threads,
      session: sessions,
      mayHoldOrphans: sql<boolean>`${mayHoldOrphans(sql`${threads.id}`)}`,
    })
    .from(threads)
    .leftJoin(sessions, eq(sessions.threadId, threads.id))
    .where(ownedThread(userId, threadId))
    .orderBy(desc(sessions.number))
    .limit(1);
  return row ? { ...row, mayHoldOrphans: row.mayHoldOrphans === true } : null;
}

/** A session with its message count and first seq (kept on write by triggers; see schema). */
export type SessionWithCounts = ChatSession;

/** The thread's sessions in order: one indexed read, whatever the thread's length. */
export async function listSessions({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<SessionWithCounts[]> {
  const rows = await getDb()
    .select({ session: sessions })
    .from(sessions)
    .innerJoin(threads, eq(threads.id, sessions.threadId))
    .where(and(eq(sessions.threadId, threadId), eq(threads.userId, userId)))
    .orderBy(asc(sessions.number));
  return rows.map((r) => r.session);
}

export async function recordSessionUsage({
  sessionId,
  inputTokens,
  coveredSeq,
  tokenRatio,
}: {
  sessionId: string;
  inputTokens: number;
  coveredSeq: number;
  /** The session's learned reported ÷ estimated ratio; left as stored when undefined. */
  tokenRatio?: number;
}): Promise<void> {
  await getDb()
    .update(sessions)
    .set({
      lastInputTokens: inputTokens,
      lastInputSeq: coveredSeq,
      ...(tokenRatio === undefined ? {} : { tokenRatio }),
    })
    .where(eq(sessions.id, sessionId));
}

const RECENT_RATIOS = 50;

/**
 * The learned token ratios of the most recent sessions whose model id starts with `modelPrefix`,
 * with their models. Read across users on purpose: a ratio describes a provider's tokenizer, not
 * anyone's conversation, and nothing else of a session is read.
 */
export async function recentTokenRatios({
  modelPrefix,
}: {
  modelPrefix: string;
}): Promise<{ model: string; tokenRatio: number }[]> {
  const pattern = `${modelPrefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await getDb()
    .select({ model: sessions.model, tokenRatio: sessions.tokenRatio })
    .from(sessions)
    .where(and(like(sessions.model, pattern), isNotNull(sessions.tokenRatio)))
    .orderBy(desc(sessions.startedAt))
    .limit(RECENT_RATIOS);
  return rows.flatMap((r) =>
    typeof r.tokenRatio === "number" ? [{ model: r.model, tokenRatio: r.tokenRatio }] : [],
  );
}

/** Compaction: the summary replaces the session's messages up to `throughSeq` in its prompt. */
export async function applyCompaction({
  sessionId,
  threadId,
  throughSeq,
  summary,
}: {
  sessionId: string;
  threadId: string;
  throughSeq: number;
  summary: string;
}): Promise<void> {
  await getDb().transaction(async (tx) => {
    await tx
      .update(messages)
      .set({ compacted: true })
      .where(
        and(
          eq(messages.threadId, threadId),
          eq(messages.sessionId, sessionId),
          lte(messages.seq, throughSeq),
        ),
      );
    // The last reported usage covered the uncompacted prompt: re-estimate from here on.
    await tx
      .update(sessions)
      .set({ summary, summarySeq: throughSeq, lastInputTokens: null, lastInputSeq: null })
      .where(eq(sessions.id, sessionId));
  });
}
