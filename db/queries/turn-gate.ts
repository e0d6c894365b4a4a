// The checks a run makes before it answers its question (lib/runs/run-session.ts enterSession),
// asked together: no reset of the thread is running, no run answers a question above it, and the
// question is still in the session the run has, which is still the thread's newest. When all
// hold (the common case) the run goes on with one statement; otherwise it takes the long way,
// which waits and re-reads.
import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import { getDb } from "../client";
import { ownedThread } from "../owned";
import { messages, sessions, threadResets, threads } from "../schema";
import { activeResetOf } from "./resets";
import { earlierQuestionsInFlight } from "./run-claims";

export async function turnIsClear(input: {
  userId: string;
  threadId: string;
  requestId: string;
  runId: string;
  sessionId: string;
}): Promise<boolean> {
  const { userId, threadId, requestId, sessionId } = input;
  const db = getDb();
  const resetRunning = db.select({ one: sql`1` }).from(threadResets).where(activeResetOf(threadId));
  const placedIn = db
    .select({ sessionId: messages.sessionId })
    .from(messages)
    .where(and(eq(messages.threadId, threadId), eq(messages.id, requestId)));
  const newest = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.threadId, threadId))
    .orderBy(desc(sessions.number))
    .limit(1);
  const [row] = await db
    .select({
      clear: sql<boolean>`not exists (${resetRunning})
        and not exists (${earlierQuestionsInFlight(input)})
        and (${placedIn}) = ${sessionId}
        and (${newest}) = ${sessionId}`,
    })
    .from(threads)
    .where(ownedThread(userId, threadId));
  return row?.clear === true;
}
