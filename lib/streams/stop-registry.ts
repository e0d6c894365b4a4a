// Stopping replies: every stream this process produces registers here with an AbortController.
// A stop is applied to this process's own streams at once and published on the bus, where every
// other server applies it to its own (each subscribes once), so a stop sent to any server
// reaches the one producing the reply.
import "server-only";
import { log } from "@/core/log";
import { type StreamBus, streamBus } from "./bus";

const STOP_CHANNEL = "baton:stream:stop";

export interface StopRequest {
  userId: string;
  threadId: string;
  /** Only this stream; every stream of the thread when absent. */
  streamId?: string;
}

/** Why a stopped reply's signal fired. */
class StoppedByUser extends Error {
  constructor() {
    super("Stopped by the user.");
    this.name = "AbortError";
  }
}

interface Entry {
  streamId: string;
  userId: string;
  threadId: string;
  controller: AbortController;
  /** False while the reply waits behind a reset (queued): a stop then leaves it alone. */
  stoppable: boolean;
}

const holder = globalThis as unknown as {
  batonStops?: { entries: Map<string, Entry>; subscribed: StreamBus | null };
};

function registry() {
  holder.batonStops ??= { entries: new Map(), subscribed: null };
  return holder.batonStops;
}

/** Stops the matching replies this process produces; returns how many it stopped. */
export function stopHere(stop: StopRequest): number {
  let stopped = 0;
  for (const entry of registry().entries.values()) {
    if (entry.userId !== stop.userId || entry.threadId !== stop.threadId) continue;
    if (stop.streamId && entry.streamId !== stop.streamId) continue;
    if (!entry.stoppable || entry.controller.signal.aborted) continue;
    entry.controller.abort(new StoppedByUser());
    stopped++;
  }
  return stopped;
}

/** Subscribes this process to stops published by other servers (once per bus). */
async function listen(): Promise<void> {
  const state = registry();
  const bus = streamBus();
  if (state.subscribed === bus) return;
  state.subscribed = bus;
  try {
    await bus.subscriber.subscribe(STOP_CHANNEL, (message) => {
      try {
        const stop = JSON.parse(message) as StopRequest;
        if (typeof stop.userId === "string" && typeof stop.threadId === "string") stopHere(stop);
      } catch {
        // not a stop request: ignored
      }
    });
  } catch (error) {
    state.subscribed = null;
    log.warn("live streams: listening for stop requests failed", error);
  }
}

export interface LiveRegistration {
  /** Fires when the reply is stopped. */
  signal: AbortSignal;
  /** Whether a stop applies now (false while the reply is queued behind a reset). */
  setStoppable: (stoppable: boolean) => void;
  unregister: () => void;
}

export function registerLiveStream(input: {
  streamId: string;
  userId: string;
  threadId: string;
  stoppable: boolean;
}): LiveRegistration {
  void listen();
  const entry: Entry = { ...input, controller: new AbortController() };
  const { entries } = registry();
  entries.set(input.streamId, entry);
  return {
    signal: entry.controller.signal,
    setStoppable: (stoppable) => {
      entry.stoppable = stoppable;
    },
    unregister: () => {
      if (entries.get(input.streamId) === entry) entries.delete(input.streamId);
    },
  };
}

/** Stops the matching replies here and on every other server. */
export async function publishStop(stop: StopRequest): Promise<void> {
  stopHere(stop);
  const bus = streamBus();
  if (bus.kind === "memory") return;
  await listen();
  await bus.publisher.publish(STOP_CHANNEL, JSON.stringify(stop));
}
