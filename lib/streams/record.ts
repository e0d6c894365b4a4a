// Recording a reply's SSE stream as it is produced, and following a recorded stream from its
// start. The recorded copy is drained here, so the run goes on whether or not anyone reads it.
import "server-only";
import { consumeStream } from "ai";
import { log } from "@/core/log";
import { streamContext } from "./context";

/**
 * Records `sse` (the teed SSE copy of a reply) under `streamId` and drains it. If the recording
 * cannot start (the bus is unreachable), the copy is drained all the same.
 */
export async function recordStream(streamId: string, sse: ReadableStream<string>): Promise<void> {
  let recorded: ReadableStream<string> | null;
  try {
    recorded = await streamContext().createNewResumableStream(streamId, () => sse);
  } catch (error) {
    log.warn("live streams: recording a reply failed; it streams unrecorded", error);
    recorded = null;
  }
  await consumeStream({ stream: recorded ?? sse });
}

/** How often, and how many times, to look again for a stream whose recording is just starting. */
const STARTING_RETRY_MS = 50;
const STARTING_RETRIES = 20;

/**
 * The whole stream `streamId` from its start, or null when there is nothing to follow: it has
 * ended, or its producer is gone (the library's request for the chunks is never answered).
 * `stillLive` says whether the run still streams, while the recording has not started yet.
 */
export async function followStream(
  streamId: string,
  stillLive: () => Promise<boolean>,
): Promise<ReadableStream<string> | null> {
  const context = streamContext();
  for (let attempt = 0; ; attempt++) {
    let stream: ReadableStream<string> | null | undefined;
    try {
      stream = await context.resumeExistingStream(streamId);
    } catch {
      return null; // "Timeout waiting for ack": the producer died
    }
    if (stream) return closedWhenGone(stream, stillLive);
    if (stream === null) return null;
    // Claimed, but its recording has not begun: a moment's wait, while the run lives.
    if (attempt >= STARTING_RETRIES || !(await stillLive())) return null;
    await new Promise((resolve) => setTimeout(resolve, STARTING_RETRY_MS));
  }
}

/** How often a follower checks that the stream's run still streams on a live server. */
const WATCH_MS = 2_000;

/**
 * `stream`, closed when its producer is gone: the library ends a follower only on the producer's
 * done message, which a server that died never sends. Two checks in a row that find the run no
 * longer streaming (ended, or its server gone) close it; the first gives a stream that has just
 * ended time to deliver its last chunks.
 */
export function closedWhenGone(
  stream: ReadableStream<string>,
  stillLive: () => Promise<boolean>,
  watchMs = WATCH_MS,
): ReadableStream<string> {
  const reader = stream.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let misses = 0;
  let done = false;
  const finish = () => {
    done = true;
    clearTimeout(timer);
  };
  return new ReadableStream<string>({
    start(controller) {
      const watch = async () => {
        if (done) return;
        const live = await stillLive().catch(() => true);
        misses = live ? 0 : misses + 1;
        if (misses >= 2) {
          finish();
          void reader.cancel().catch(() => {});
          try {
            controller.close();
          } catch {
            // already closed by the reader going away
          }
          return;
        }
        timer = setTimeout(watch, watchMs);
      };
      timer = setTimeout(watch, watchMs);
    },
    async pull(controller) {
      if (done) return;
      const { done: ended, value } = await reader.read();
      if (done) return;
      if (ended) {
        finish();
        controller.close();
      } else controller.enqueue(value);
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
}
