import "server-only";
import { and, asc, count, desc, eq, lte, min } from "drizzle-orm";
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

export interface SessionWithCounts extends ChatSession {
  firstSeq: number | null;
  messageCount: number;
}

export async function listSessions({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<SessionWithCounts[]> {
  const db = getDb();
  const counts = db
    .select({
      sessionId: messages.sessionId,
      firstSeq: min(messages.seq).as("first_seq"),
      messageCount: count().as("message_count"),
    })
    .from(messages)
    .where(eq(messages.threadId, threadId))
    .groupBy(messages.sessionId)
    .as("counts");
  const rows = await db
    .select({ session: sessions, firstSeq: counts.firstSeq, messageCount: counts.messageCount })
    .from(sessions)
    .innerJoin(threads, eq(threads.id, sessions.threadId))
    .leftJoin(counts, eq(counts.sessionId, sessions.id))
    .where(and(eq(sessions.threadId, threadId), eq(threads.userId, userId)))
    .orderBy(asc(sessions.number));
  return rows.map((r) => ({
    ...r.session,
    firstSeq: r.firstSeq === null ? null : Number(r.firstSeq),
    messageCount: Number(r.messageCount ?? 0),
  }));
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
