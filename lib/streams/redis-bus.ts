// The stream bus on Redis: one connection publishes and keeps keys, another (a connection in
// subscriber mode cannot run other commands) receives. Writes that fail on a broken connection
// are logged and swallowed: the resumable-stream library calls some of them from timers, where
// a rejection would go unhandled, and a reply must go on streaming while Redis is away.
import { Redis } from "ioredis";
import type { Publisher, Subscriber } from "resumable-stream/generic";
import { log } from "@/core/log";
import type { StreamBus } from "./bus-types";

const OPTIONS = { maxRetriesPerRequest: 1, connectTimeout: 2000 } as const;

export function createRedisBus(url: string): StreamBus {
  const commands = new Redis(url, { ...OPTIONS, commandTimeout: 2000 });
  const events = new Redis(url, OPTIONS);
  let warned = false;
  const failed = (what: string) => (error: unknown) => {
    if (!warned) log.warn(`live streams: Redis ${what} failed`, error);
    warned = true;
    return null;
  };
  for (const client of [commands, events]) {
    client.on("error", failed("connection"));
    client.on("ready", () => {
      warned = false;
    });
  }

  const publisher: Publisher = {
    connect: async () => undefined,
    publish: (channel, message) => commands.publish(channel, message).catch(failed("publish")),
    set: (key, value, options) =>
      (options?.EX ? commands.set(key, value, "EX", options.EX) : commands.set(key, value)).catch(
        failed("write"),
      ),
    get: (key) => commands.get(key).catch(failed("read")),
    incr: (key) => commands.incr(key),
  };

  const handlers = new Map<string, Set<(message: string) => void>>();
  events.on("message", (channel: string, message: string) => {
    for (const handler of handlers.get(channel) ?? []) handler(message);
  });
  const subscriber: Subscriber = {
    connect: async () => undefined,
    subscribe: async (channel, callback) => {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(callback);
      await events.subscribe(channel);
    },
    unsubscribe: async (channel) => {
      handlers.delete(channel);
      await events.unsubscribe(channel).catch(failed("unsubscribe"));
    },
  };

  return {
    kind: "redis",
    publisher,
    subscriber,
    close: async () => {
      commands.disconnect();
      events.disconnect();
    },
  };
}
