// The thread-level operations on live streams: follow one from its start, and stop replies.
import "server-only";
import { isStreamLive, listLiveStreams } from "@/db/queries/live-streams";
import { getThread } from "@/db/queries/threads";
import { threadNotFound } from "@/lib/chat/thread-param";
import { followStream } from "./record";
import { publishStop, stopHere } from "./stop-registry";

async function liveStreamsOf(userId: string, threadId: string) {
  const thread = await getThread({ userId, threadId });
  if (!thread) throw threadNotFound();
  return listLiveStreams({ userId, threadId });
}

/**
 * The SSE text of the thread's live stream `streamId` (or its newest one) from the start, or
 * null when nothing is live or its producer is gone. Another user's thread is not found.
 */
export async function openLiveStream({
  userId,
  threadId,
  streamId,
}: {
  userId: string;
  threadId: string;
  streamId?: string;
}): Promise<ReadableStream<string> | null> {
  const live = await liveStreamsOf(userId, threadId);
  const target = streamId ? live.find((s) => s.streamId === streamId) : live.at(-1);
  if (!target) return null;
  return followStream(target.streamId, () =>
    isStreamLive({ userId, threadId, streamId: target.streamId }),
  );
}

/**
 * Stops the thread's replies that are being answered (or just `streamId`), on whichever server
 * produces them. Replies queued behind a reset are left alone. Returns how many were addressed.
 */
export async function stopLiveStreams({
  userId,
  threadId,
  streamId,
}: {
  userId: string;
  threadId: string;
  streamId?: string;
}): Promise<number> {
  // This server's own replies stop before anything is read: on a busy machine the reads below can
  // take a while, and a reply keeps streaming until its signal fires. The registry only holds the
  // caller's own streams under their user id, so nothing of another user's is touched.
  stopHere({ userId, threadId, streamId });
  const live = await liveStreamsOf(userId, threadId);
  const addressed = live.filter((s) => !s.queued && (!streamId || s.streamId === streamId));
  if (addressed.length > 0) await publishStop({ userId, threadId, streamId });
  return addressed.length;
}
