import "server-only";
import { and, asc, desc, eq, lte } from "drizzle-orm";
import { getDb } from "../client";
import { type ChatSession, messages, sessions, threads } from "../schema";

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
}: {
  sessionId: string;
  inputTokens: number;
  coveredSeq: number;
}): Promise<void> {
  await getDb()
    .update(sessions)
    .set({ lastInputTokens: inputTokens, lastInputSeq: coveredSeq })
    .where(eq(sessions.id, sessionId));
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
