// The stream bus inside one process: pub/sub over a map of channels and a key/value map whose
// entries expire, with the semantics the resumable-stream library expects of Redis (messages
// delivered asynchronously and in publish order; `incr` of a non-number fails like Redis does).
import type { Publisher, Subscriber } from "resumable-stream/generic";
import type { StreamBus } from "./bus-types";

type Listener = (message: string) => void;

interface Entry {
  value: string;
  expiresAt: number | null;
}

/** Expired keys are swept after this many writes (reads drop an expired key themselves). */
const SWEEP_EVERY = 500;

export function createMemoryBus(): StreamBus {
  const channels = new Map<string, Set<Listener>>();
  const store = new Map<string, Entry>();
  let writes = 0;

  const live = (key: string): Entry | null => {
    const entry = store.get(key);
    if (!entry) return null;
    if (entry.expiresAt !== null && entry.expiresAt <= Date.now()) {
      store.delete(key);
      return null;
    }
    return entry;
  };
  const write = (key: string, entry: Entry) => {
    store.set(key, entry);
    if (++writes % SWEEP_EVERY === 0) for (const k of [...store.keys()]) live(k);
  };

  const publisher: Publisher = {
    connect: async () => undefined,
    publish: async (channel, message) => {
      const listeners = [...(channels.get(channel) ?? [])];
      // Like Redis: never inside the publisher's own call, but in publish order.
      for (const listener of listeners) queueMicrotask(() => listener(message));
      return listeners.length;
    },
    set: async (key, value, options) => {
      write(key, { value, expiresAt: options?.EX ? Date.now() + options.EX * 1000 : null });
      return "OK";
    },
    get: async (key) => live(key)?.value ?? null,
    incr: async (key) => {
      const entry = live(key);
      const current = entry ? Number(entry.value) : 0;
      if (!Number.isInteger(current)) {
        throw new Error("ERR value is not an integer or out of range");
      }
      write(key, { value: String(current + 1), expiresAt: entry?.expiresAt ?? null });
      return current + 1;
    },
  };

  const subscriber: Subscriber = {
    connect: async () => undefined,
    subscribe: async (channel, callback) => {
      let set = channels.get(channel);
      if (!set) {
        set = new Set();
        channels.set(channel, set);
      }
      set.add(callback);
    },
    unsubscribe: async (channel) => {
      channels.delete(channel);
    },
  };

  return { kind: "memory", publisher, subscriber, close: async () => channels.clear() };
}
