// The pub/sub and key/value "bus" live streams and stop requests travel on: Redis when
// REDIS_URL is set (every server sees every other's messages), else one process's memory.
import type { Publisher, Subscriber } from "resumable-stream/generic";

export interface StreamBus {
  kind: "redis" | "memory";
  /** Publishes and stores keys. Never rejects on a broken connection for publish/set/get. */
  publisher: Publisher;
  /** Delivers messages of subscribed channels (on Redis, over a connection of its own). */
  subscriber: Subscriber;
  close: () => Promise<void>;
}
