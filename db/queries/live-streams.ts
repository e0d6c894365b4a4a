import "server-only";
import { and, asc, eq, isNotNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { getDb } from "../client";
import { messages, runs } from "../schema";
import { instanceIsLive } from "./instances";

// Live streams: a run `running` on a live instance with a stream id is producing that stream now
// (docs/streams.md). Read through the partial index on running runs, oldest first.

const continued = alias(messages, "continued");

export interface LiveStreamRow {
  runId: string;
  streamId: string;
  requestMessageId: string | null;
  /** The stored assistant message the stream continues (approval answers, Continue). */
  streamMessageId: string | null;
  streamBaseParts: number;
  /** Where the continued message sits: the run's rows above it were written by earlier streams. */
  streamMessageSeq: number | null;
  startedAt: Date;
  /** The request waits behind a reset (stored `queued`): a stop leaves its reply alone. */
  queued: boolean;
}

export async function listLiveStreams({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<LiveStreamRow[]> {
  const rows = await getDb()
    .select({
      runId: runs.id,
      streamId: runs.streamId,
      requestMessageId: runs.requestMessageId,
      streamMessageId: runs.streamMessageId,
      streamBaseParts: runs.streamBaseParts,
      startedAt: runs.startedAt,
      requestStatus: messages.status,
      streamMessageSeq: continued.seq,
    })
    .from(runs)
    .leftJoin(
      messages,
      and(eq(messages.threadId, runs.threadId), eq(messages.id, runs.requestMessageId)),
    )
    .leftJoin(
      continued,
      and(eq(continued.threadId, runs.threadId), eq(continued.id, runs.streamMessageId)),
    )
    .where(
      and(
        eq(runs.threadId, threadId),
        eq(runs.userId, userId),
        eq(runs.status, "running"),
        isNotNull(runs.streamId),
        instanceIsLive(runs.instanceId),
      ),
    )
    .orderBy(asc(runs.startedAt), asc(runs.id));
  return rows.flatMap(({ requestStatus, streamId, ...row }) =>
    streamId ? [{ ...row, streamId, queued: requestStatus === "queued" }] : [],
  );
}

/** Whether the stream is still produced by a running run on a live instance. */
export async function isStreamLive({
  userId,
  threadId,
  streamId,
}: {
  userId: string;
  threadId: string;
  streamId: string;
}): Promise<boolean> {
  const [row] = await getDb()
    .select({ id: runs.id })
    .from(runs)
    .where(
      and(
        eq(runs.threadId, threadId),
        eq(runs.userId, userId),
        eq(runs.status, "running"),
        eq(runs.streamId, streamId),
        instanceIsLive(runs.instanceId),
      ),
    )
    .limit(1);
  return row !== undefined;
}
