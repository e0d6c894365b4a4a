// What the thread view shows of replies that stream now. A reader following a live stream gets
// it from its start and appends it to the message list, so the rows the stream is writing are
// left out of the page: every assistant row of the streaming run below the message the stream
// continues (all of them for a new run), and that continued message (an approval answer, a
// Continue) cut back to the parts it held when the stream began. Rows of the same run written
// by an earlier stream stay.
import type { LiveStreamRow } from "@/db/queries/live-streams";
import type { Message, ThreadReset } from "@/db/schema";
import type { ActiveResetView, LiveStream } from "./types";

export function withoutLiveRows(
  rows: readonly Message[],
  live: readonly LiveStreamRow[],
): Message[] {
  const byRun = new Map(live.map((s) => [s.runId, s]));
  return rows.flatMap((row): Message[] => {
    const stream = row.runId ? byRun.get(row.runId) : undefined;
    if (!stream || row.role !== "assistant") return [row];
    if (row.id === stream.streamMessageId) {
      return [{ ...row, parts: row.parts.slice(0, stream.streamBaseParts), status: "partial" }];
    }
    const from = stream.streamMessageSeq;
    return from !== null && row.seq < from ? [row] : [];
  });
}

export function liveStreamOf(row: LiveStreamRow): LiveStream {
  return {
    streamId: row.streamId,
    requestId: row.requestMessageId,
    continuesMessageId: row.streamMessageId,
    startedAt: row.startedAt.toISOString(),
  };
}

export function activeResetOf(reset: ThreadReset): ActiveResetView {
  return {
    fromSession: reset.fromSession,
    trigger: reset.trigger,
    startedAt: reset.createdAt.toISOString(),
  };
}
