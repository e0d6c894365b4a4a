// Recovery's reads and writes: the threads that may hold something to recover, runs whose
// server died, and runs parked at a draft under review. Claiming the orphaned requests
// themselves is run-claims.ts's (claimOrphans).
import "server-only";
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { getDb, rowsOf } from "../client";
import { messages, type Run, runs, threads } from "../schema";
import { instanceIsLive } from "./instances";

/** A run of thread `id` whose instance is gone, or one parked at a draft (resumed once it ends). */
function stuckRunOf(id: SQL) {
  return sql`exists (select 1 from ${runs} r where r.thread_id = ${id} and r.status = 'running'
                    and not ${instanceIsLive(sql`r.instance_id`)})
       or exists (select 1 from ${runs} r where r.thread_id = ${id} and r.status = 'awaiting_review')`;
}

/**
 * Threads that may hold orphans: a run whose instance is gone, a run parked at a draft, a queued
 * message, a last message from the user.
 */
export async function listRecoveryCandidates(): Promise<{ threadId: string; userId: string }[]> {
  const rows = await getDb().execute(sql`
    select t.id as "threadId", t.user_id as "userId" from ${threads} t
    where ${stuckRunOf(sql`t.id`)}
       or exists (select 1 from ${messages} m where m.thread_id = t.id and m.status = 'queued')
       or exists (select 1 from ${messages} m where m.thread_id = t.id and m.seq = t.next_seq - 1
                    and m.role = 'user')`);
  return rowsOf<{ threadId: string; userId: string }>(rows);
}

/**
 * Whether one thread may hold something to recover, in one statement that reads no more than a
 * few rows (recovery on a touch of the thread asks it before claiming): a stuck run, or a newest
 * message from the user (the only place claimOrphans looks for orphans).
 */
export async function threadMayHoldOrphans({ threadId }: { threadId: string }): Promise<boolean> {
  const rows = await getDb().execute(sql`
    select 1 as "found" where ${mayHoldOrphans(sql`${threadId}`)}`);
  return rowsOf(rows).length > 0;
}

/** The condition of threadMayHoldOrphans for thread `id`, for a read that asks it on the way. */
export function mayHoldOrphans(id: SQL): SQL {
  return sql`(${stuckRunOf(id)}
       or (select m.role from ${messages} m where m.thread_id = ${id}
             order by m.seq desc limit 1) = 'user')`;
}

/** Running runs of the thread whose instance is gone, claimed for `instanceId` (oldest first). */
export async function claimDeadRuns({
  threadId,
  instanceId,
}: {
  threadId: string;
  instanceId: string;
}): Promise<Run[]> {
  return getDb().transaction(async (tx) => {
    const dead = await tx
      .select()
      .from(runs)
      .where(
        and(
          eq(runs.threadId, threadId),
          eq(runs.status, "running"),
          sql`not ${instanceIsLive(runs.instanceId)}`,
        ),
      )
      .orderBy(asc(runs.startedAt))
      .for("update", { skipLocked: true });
    if (dead.length === 0) return [];
    return tx
      .update(runs)
      .set({
        instanceId,
        updatedAt: new Date(),
        // A resumed run streams anew, continuing its stored message from the parts it holds.
        streamId: sql`gen_random_uuid()::text`,
        streamMessageId: runs.messageId,
        streamBaseParts: sql`coalesce((select jsonb_array_length(${messages.parts}) from ${messages} where ${messages.threadId} = ${runs.threadId} and ${messages.id} = ${runs.messageId}), 0)`,
      })
      .where(
        inArray(
          runs.id,
          dead.map((r) => r.id),
        ),
      )
      .returning()
      .then((rows) => rows.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime()));
  });
}

/** The thread's runs parked at a draft under review, oldest first. */
export async function listRunsAwaitingReview({ threadId }: { threadId: string }): Promise<Run[]> {
  return getDb()
    .select()
    .from(runs)
    .where(and(eq(runs.threadId, threadId), eq(runs.status, "awaiting_review")))
    .orderBy(asc(runs.startedAt));
}

/**
 * Claims a run parked at a draft for `instanceId` once the draft ended (null when another
 * server claimed it first); it streams anew, from `streamBaseParts` of its message.
 */
export async function claimRunAfterReview(input: {
  runId: string;
  instanceId: string;
  streamBaseParts: number;
}): Promise<Run | null> {
  const [claimed] = await getDb()
    .update(runs)
    .set({
      status: "running",
      instanceId: input.instanceId,
      streamId: crypto.randomUUID(),
      streamMessageId: sql`${runs.messageId}`,
      streamBaseParts: input.streamBaseParts,
      updatedAt: new Date(),
    })
    .where(and(eq(runs.id, input.runId), eq(runs.status, "awaiting_review")))
    .returning();
  return claimed ?? null;
}

/** Ends a run that died with its server: `interrupted` keeps it continuable, `failed` does not. */
export async function endDeadRun({
  runId,
  status,
}: {
  runId: string;
  status: "interrupted" | "failed";
}): Promise<void> {
  await getDb()
    .update(runs)
    .set({ status, failureReason: "interrupted", updatedAt: new Date(), endedAt: new Date() })
    .where(and(eq(runs.id, runId), eq(runs.status, "running")));
}
