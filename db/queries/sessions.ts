import "server-only";
import { and, asc, count, desc, eq, min } from "drizzle-orm";
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
