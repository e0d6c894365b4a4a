import "server-only";
import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import { getDb } from "../client";
import type { Tx } from "../executor";
import { type Message, messageColumns, messages, type Run, runs, threadResets } from "../schema";
import { instanceIsLive } from "./instances";
import { deleteSessionMessagesAfter } from "./messages";

// Claims: a user message is answered by exactly one run. A run that answers it (running on a
// live instance, or parked on an approval) claims it; a new claim is refused while such a run
// exists. Claims lock the message row, so two servers recovering the same message never both win.

/** A run that still answers its request: running on a live instance, or waiting for the user. */
const answersLive = or(
  eq(runs.status, "awaiting_approval"),
  eq(runs.status, "awaiting_review"),
  and(eq(runs.status, "running"), instanceIsLive(runs.instanceId)),
);

/** After this many interrupted runs of one message, recovery stops retrying it. */
const MAX_RECOVERY_ATTEMPTS = 3;

async function hasLiveRun(
  tx: Tx | ReturnType<typeof getDb>,
  threadId: string,
  messageId: string,
): Promise<boolean> {
  const [row] = await tx
    .select({ id: runs.id })
    .from(runs)
    .where(and(eq(runs.threadId, threadId), eq(runs.requestMessageId, messageId), answersLive))
    .limit(1);
  return row !== undefined;
}

/**
 * Deletes what follows user message `request` in its session (its answer), unless a run still
 * answers it (streaming on a live instance, or parked): an edit or a regenerate must not delete
 * the reply being written. The check and the delete hold the message's row lock, which every
 * claim takes too, so no run starts answering in between. False when refused.
 */
export function deleteAnswerUnlessLive(input: {
  userId: string;
  threadId: string;
  request: Message;
}): Promise<boolean> {
  const { userId, threadId, request } = input;
  return getDb().transaction(async (tx) => {
    await tx
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.threadId, threadId), eq(messages.id, request.id)))
      .for("update");
    if (await hasLiveRun(tx, threadId, request.id)) return false;
    await deleteSessionMessagesAfter({
      userId,
      threadId,
      sessionId: request.sessionId,
      seq: request.seq,
      tx,
    });
    return true;
  });
}

/** What a run claiming `request` is stored with. */
interface ClaimInput {
  userId: string;
  threadId: string;
  request: Message;
  maxSteps: number;
  instanceId: string;
}

function insertRun(tx: Tx, input: ClaimInput) {
  return tx
    .insert(runs)
    .values({
      threadId: input.threadId,
      userId: input.userId,
      maxSteps: input.maxSteps,
      firstSessionId: input.request.sessionId,
      lastSessionId: input.request.sessionId,
      sessionIds: [input.request.sessionId],
      requestMessageId: input.request.id,
      instanceId: input.instanceId,
      // The stream the run produces (docs/streams.md): a new id for every request.
      streamId: crypto.randomUUID(),
    })
    .returning();
}

/**
 * A chat request claims the message it answers. Null when a live run already answers it (another
 * server recovering it, or a duplicate request).
 */
export async function claimRequest(input: {
  userId: string;
  threadId: string;
  requestId: string;
  maxSteps: number;
  instanceId: string;
}): Promise<Run | null> {
  return getDb().transaction(async (tx) => {
    const [request] = await tx
      .select(messageColumns)
      .from(messages)
      .where(and(eq(messages.threadId, input.threadId), eq(messages.id, input.requestId)))
      .for("update");
    if (!request) return null;
    if (await hasLiveRun(tx, input.threadId, request.id)) return null;
    const [run] = await insertRun(tx, { ...input, request });
    return run ?? null;
  });
}

/**
 * Claims a request in the transaction that just stored it: no run can answer a message that did
 * not exist, and recovery leaves a message this young alone, so there is nothing to check.
 */
export async function claimStoredRequest(tx: Tx, input: ClaimInput): Promise<Run> {
  const [run] = await insertRun(tx, input);
  if (!run) throw new Error("run was not stored");
  return run;
}

export interface OrphanClaim {
  request: Message;
  run: Run;
}

/**
 * Claims every unanswered user message at the end of the thread, in seq order: queued ones and
 * those whose turn died. A message is skipped while a live run answers it, while the reset it is
 * queued behind is still in flight, while it is fresh (`acceptedBefore`: its own request may be
 * about to claim it), or after MAX_RECOVERY_ATTEMPTS interrupted runs.
 */
export async function claimOrphans(input: {
  userId: string;
  threadId: string;
  instanceId: string;
  maxSteps: number;
  /** Messages accepted after this are left to the request that accepted them. */
  acceptedBefore: Date;
}): Promise<OrphanClaim[]> {
  const { threadId } = input;
  return getDb().transaction(async (tx) => {
    // While a handoff draft awaits review nothing is answered: the draft's end decides the session.
    if (await draftAwaits(tx, threadId)) return [];
    const tail = await tx
      .select({ id: messages.id, role: messages.role, seq: messages.seq })
      .from(messages)
      .where(eq(messages.threadId, threadId))
      .orderBy(desc(messages.seq))
      .limit(50);
    const ids: string[] = [];
    for (const row of tail) {
      if (row.role !== "user") break;
      ids.push(row.id);
    }
    if (ids.length === 0) return [];
    const locked = await tx
      .select(messageColumns)
      .from(messages)
      .where(and(eq(messages.threadId, threadId), inArray(messages.id, ids)))
      .orderBy(asc(messages.seq))
      .for("update", { skipLocked: true });
    const claims: OrphanClaim[] = [];
    for (const request of locked) {
      if (request.createdAt >= input.acceptedBefore) continue;
      if (await hasLiveRun(tx, threadId, request.id)) continue;
      if (request.status === "queued" && (await queuedBehindLiveReset(tx, request))) continue;
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(runs)
        .where(
          and(
            eq(runs.threadId, threadId),
            eq(runs.requestMessageId, request.id),
            eq(runs.failureReason, "interrupted"),
          ),
        );
      if (Number(n) >= MAX_RECOVERY_ATTEMPTS) continue;
      const [run] = await insertRun(tx, { ...input, request });
      if (run) claims.push({ request, run });
    }
    return claims;
  });
}

async function draftAwaits(tx: Tx, threadId: string): Promise<boolean> {
  const [row] = await tx
    .select({ threadId: threadResets.threadId })
    .from(threadResets)
    .where(and(eq(threadResets.threadId, threadId), eq(threadResets.state, "awaiting_review")))
    .limit(1);
  return row !== undefined;
}

async function queuedBehindLiveReset(tx: Tx, request: Message): Promise<boolean> {
  const [row] = await tx
    .select({ threadId: threadResets.threadId })
    .from(threadResets)
    .where(
      and(
        eq(threadResets.threadId, request.threadId),
        eq(threadResets.state, "running"),
        sql`${threadResets.leaseExpiresAt} > now()`,
        instanceIsLive(threadResets.instanceId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The interrupted run whose message is `messageId`, claimed (set running) for a Continue. */
export async function claimInterruptedRun(input: {
  userId: string;
  threadId: string;
  messageId: string;
  instanceId: string;
  /** How many parts the message holds as the Continue's stream begins. */
  streamBaseParts: number;
}): Promise<Run | null> {
  return getDb().transaction(async (tx) => {
    const [run] = await tx
      .select()
      .from(runs)
      .where(
        and(
          eq(runs.threadId, input.threadId),
          eq(runs.userId, input.userId),
          eq(runs.messageId, input.messageId),
          eq(runs.status, "interrupted"),
        ),
      )
      .orderBy(desc(runs.startedAt))
      .limit(1)
      .for("update");
    if (!run) return null;
    const [claimed] = await tx
      .update(runs)
      .set({
        status: "running",
        instanceId: input.instanceId,
        streamId: crypto.randomUUID(),
        streamMessageId: input.messageId,
        streamBaseParts: input.streamBaseParts,
        failureReason: null,
        endedAt: null,
        updatedAt: new Date(),
      })
      .where(eq(runs.id, run.id))
      .returning();
    return claimed ?? null;
  });
}

/** Runs answering a question above `requestId` (not `runId` itself) on a live instance. */
export function earlierQuestionsInFlight(input: {
  threadId: string;
  requestId: string;
  runId: string;
}) {
  // Read the request's seq in the query: placing an answer above it moves it down.
  const requestSeq = sql`(select ${messages.seq} from ${messages} where ${messages.threadId} = ${input.threadId} and ${messages.id} = ${input.requestId})`;
  return getDb()
    .select({ id: runs.id })
    .from(runs)
    .innerJoin(
      messages,
      and(eq(messages.threadId, runs.threadId), eq(messages.id, runs.requestMessageId)),
    )
    .where(
      and(
        eq(runs.threadId, input.threadId),
        eq(runs.status, "running"),
        instanceIsLive(runs.instanceId),
        sql`${runs.id} <> ${input.runId}`,
        sql`${messages.seq} < ${requestSeq}`,
      ),
    );
}

/**
 * Whether a run still answers an earlier question of the thread (a user message stored above
 * `requestId`) on a live instance. A thread's questions are answered one after another in
 * seq order, so a run waits while this holds. Runs parked on an approval do not count: a new
 * message denies their open calls.
 */
export async function earlierQuestionInFlight(input: {
  threadId: string;
  requestId: string;
  runId: string;
}): Promise<boolean> {
  const [row] = await earlierQuestionsInFlight(input).limit(1);
  return row !== undefined;
}
