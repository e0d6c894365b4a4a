// Recording a reply's SSE stream as it is produced, and following a recorded stream from its
// start. The recorded copy is drained here, so the run goes on whether or not anyone reads it.
import "server-only";
import { consumeStream } from "ai";
import { log } from "@/lib/log";
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
    if (stream !== undefined) return stream;
    // Claimed, but its recording has not begun: a moment's wait, while the run lives.
    if (attempt >= STARTING_RETRIES || !(await stillLive())) return null;
    await new Promise((resolve) => setTimeout(resolve, STARTING_RETRY_MS));
  }
}
