// The process's one stream bus, chosen by REDIS_URL and kept on globalThis so Next's module
// reloads in development share it (a changed REDIS_URL, as in tests, gets a bus of its own).
import "server-only";
import { serverEnv } from "@/core/env";
import type { StreamBus } from "./bus-types";
import { createMemoryBus } from "./memory-bus";
import { createRedisBus } from "./redis-bus";

export type { StreamBus } from "./bus-types";

const holder = globalThis as unknown as { batonStreamBus?: { key: string; bus: StreamBus } };

export function streamBus(): StreamBus {
  const url = serverEnv().REDIS_URL;
  const key = url ?? "memory";
  if (holder.batonStreamBus?.key !== key) {
    const previous = holder.batonStreamBus?.bus;
    if (previous) void previous.close();
    holder.batonStreamBus = { key, bus: url ? createRedisBus(url) : createMemoryBus() };
  }
  return holder.batonStreamBus.bus;
}
