// The resumable-stream context of this process (docs/streams.md): a stream's chunks are kept in
// the memory of the process producing it, and the bus carries requests to follow a stream and
// the chunks sent back, so a reader on any server can follow it from its start.
import "server-only";
import {
  createResumableStreamContext,
  type ResumableStreamContext,
} from "resumable-stream/generic";
import { type StreamBus, streamBus } from "./bus";

const KEY_PREFIX = "baton:stream";

const holder = globalThis as unknown as {
  batonStreamContext?: { bus: StreamBus; context: ResumableStreamContext };
};

export function streamContext(): ResumableStreamContext {
  const bus = streamBus();
  if (holder.batonStreamContext?.bus !== bus) {
    holder.batonStreamContext = {
      bus,
      context: createResumableStreamContext({
        keyPrefix: KEY_PREFIX,
        // A long-running server: nothing is suspended when a response ends.
        waitUntil: null,
        publisher: bus.publisher,
        subscriber: bus.subscriber,
      }),
    };
  }
  return holder.batonStreamContext.context;
}
