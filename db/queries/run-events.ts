import "server-only";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { getDb, rowsOf } from "../client";
import type { Executor } from "../executor";
import { type Run, type RunEvent, runEvents, runs } from "../schema";

// The run journal's rows: one ordered event per row, numbered per run. Every read and write is
// scoped by the run's owner (runs.user_id) and its thread, so a run id alone reaches nothing.

/**
 * Appends that lose the race for a seq to another writer try again; each lost race means some
 * other append went in, so this bounds the writers contending at once, not the run's length.
 */
const MAX_APPEND_ATTEMPTS = 50;

export interface RunEventInput {
  userId: string;
  threadId: string;
  runId: string;
  type: string;
  agent: string | null;
  invocationId: string | null;
  payload: Record<string, unknown>;
}

/** Whether the error (or one of its causes: Drizzle wraps the driver's) is a unique violation. */
function isUniqueViolation(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== "object" || error === null) return false;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  return code === "23505" || isUniqueViolation(cause, depth + 1);
}

/**
 * Stores the event as the run's next one: `seq` is one past the run's highest in the same
 * statement, and a writer that meets another's row at that seq (two processes appending to one
 * run) computes it again. Null when the run is not the user's in that thread.
 */
export async function appendRunEvent(db: Executor, input: RunEventInput): Promise<RunEvent | null> {
  const payload = JSON.stringify(input.payload);
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await db.execute(sql`
        insert into ${runEvents} (run_id, seq, thread_id, type, agent, invocation_id, payload)
        select ${runs.id},
          coalesce((select max(e.seq) from ${runEvents} e where e.run_id = ${runs.id}), 0) + 1,
          ${runs.threadId}, ${input.type}, ${input.agent}, ${input.invocationId}, ${payload}::jsonb
        from ${runs}
        where ${runs.id} = ${input.runId} and ${runs.userId} = ${input.userId}
          and ${runs.threadId} = ${input.threadId}
        returning seq, created_at`);
      const [row] = rowsOf<{ seq: number; created_at: Date | string }>(result);
      if (!row) return null;
      return {
        runId: input.runId,
        seq: Number(row.seq),
        threadId: input.threadId,
        type: input.type,
        agent: input.agent,
        invocationId: input.invocationId,
        payload: JSON.parse(payload),
        createdAt: new Date(row.created_at),
      } satisfies RunEvent;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= MAX_APPEND_ATTEMPTS) throw error;
    }
  }
}

/** The run, if it is the user's and belongs to the thread. */
async function ownedRun({
  userId,
  threadId,
  runId,
}: {
  userId: string;
  threadId: string;
  runId: string;
}): Promise<Run | null> {
  const [run] = await getDb()
    .select()
    .from(runs)
    .where(and(eq(runs.id, runId), eq(runs.userId, userId), eq(runs.threadId, threadId)));
  return run ?? null;
}

/** The run and its events in order; null when the run is not the user's in that thread. */
export async function listRunEvents({
  userId,
  threadId,
  runId,
}: {
  userId: string;
  threadId: string;
  runId: string;
}): Promise<{ run: Run; events: RunEvent[] } | null> {
  const run = await ownedRun({ userId, threadId, runId });
  if (!run) return null;
  const events = await getDb()
    .select()
    .from(runEvents)
    .where(and(eq(runEvents.runId, run.id), eq(runEvents.threadId, threadId)))
    .orderBy(asc(runEvents.seq));
  return { run, events };
}

/**
 * The run that answered a user message: the newest one whose request it is (a regenerated
 * reply answers the same message again, and the newest run wrote the reply now shown).
 */
export async function findRunForRequest({
  userId,
  threadId,
  requestMessageId,
}: {
  userId: string;
  threadId: string;
  requestMessageId: string;
}): Promise<Run | null> {
  const [run] = await getDb()
    .select()
    .from(runs)
    .where(
      and(
        eq(runs.threadId, threadId),
        eq(runs.userId, userId),
        eq(runs.requestMessageId, requestMessageId),
      ),
    )
    .orderBy(desc(runs.startedAt), desc(runs.id))
    .limit(1);
  return run ?? null;
}
