// Rate limits: one fixed-window limiter per bucket and process, counting in memory, or in Redis
// when REDIS_URL is set so every Baton process shares the counts. If Redis is unreachable the
// same limits are counted in this process's memory until it is back (logged), so a Redis outage
// neither stops sign-ins nor lifts the limits. The numbers and keys are documented in the README
// ("Rate limits").
import "server-only";
import { Redis } from "ioredis";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { type ServerEnv, serverEnv } from "@/core/env";
import { BatonError } from "@/core/errors";
import { log } from "@/core/log";
import { countRateLimitRejection } from "@/lib/metrics";

export type RateBucket = "signIn" | "signUp" | "guest" | "chat" | "api";

export interface RateLimit {
  points: number;
  durationSeconds: number;
}

/** On by default, generous enough that no person working normally meets them. */
export const DEFAULT_RATE_LIMITS: Record<RateBucket, RateLimit> = {
  signIn: { points: 10, durationSeconds: 60 }, // failed sign-ins per (client address, account)
  signUp: { points: 20, durationSeconds: 3600 }, // sign-up attempts per client address
  guest: { points: 30, durationSeconds: 60 }, // guest accounts started per client address
  chat: { points: 60, durationSeconds: 60 }, // chat turns per user
  api: { points: 600, durationSeconds: 60 }, // handoff API and MCP requests per token or user
};

const OVERRIDE: Record<RateBucket, (env: ServerEnv) => RateLimit | undefined> = {
  signIn: (env) => env.BATON_RATE_LIMIT_SIGN_IN,
  signUp: (env) => env.BATON_RATE_LIMIT_SIGN_UP,
  guest: (env) => env.BATON_RATE_LIMIT_GUEST,
  chat: (env) => env.BATON_RATE_LIMIT_CHAT,
  api: (env) => env.BATON_RATE_LIMIT_API,
};

const REFUSAL: Record<RateBucket, string> = {
  signIn: "Too many failed sign-ins to this account from your address.",
  signUp: "Too many sign-ups from your address.",
  guest: "Too many guest sessions started from your address.",
  chat: "Too many messages.",
  api: "Too many requests.",
};

/** The bucket's limit: its BATON_RATE_LIMIT_* variable, else the default. */
function rateLimitOf(bucket: RateBucket): RateLimit {
  return OVERRIDE[bucket](serverEnv()) ?? DEFAULT_RATE_LIMITS[bucket];
}

/**
 * Counts one request of `key` in `bucket`; over the limit it throws a 429
 * `rate_limited:requests` whose Retry-After says when the window ends.
 */
export async function consumeRateLimit(bucket: RateBucket, key: string): Promise<void> {
  const limiter = await limiterFor(bucket);
  try {
    await limiter.consume(key);
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    countRateLimitRejection(bucket);
    const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw new BatonError(
      "rate_limited:requests",
      `${REFUSAL[bucket]} Try again in ${describeWait(seconds)}.`,
      undefined,
      { "Retry-After": String(seconds) },
    );
  }
}

/** Forgets what `key` consumed in `bucket` (a successful sign-in clears its failures). */
export async function clearRateLimit(bucket: RateBucket, key: string): Promise<void> {
  await (await limiterFor(bucket)).delete(key);
}

function describeWait(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

const registry = globalThis as unknown as {
  batonRateLimiters?: Map<string, RateLimiterAbstract>;
  batonRateLimitRedis?: Map<string, RedisStore>;
};

/**
 * The bucket's limiter, created once per process for its configuration (a changed variable,
 * as in tests, gets a limiter of its own).
 */
async function limiterFor(bucket: RateBucket): Promise<RateLimiterAbstract> {
  const { points, durationSeconds } = rateLimitOf(bucket);
  const redisUrl = serverEnv().REDIS_URL;
  const id = `${bucket} ${points}/${durationSeconds} ${redisUrl ?? "memory"}`;
  registry.batonRateLimiters ??= new Map();
  let limiter = registry.batonRateLimiters.get(id);
  if (!limiter) {
    const options = { keyPrefix: `baton:rl:${bucket}`, points, duration: durationSeconds };
    const memory = new RateLimiterMemory(options);
    limiter = redisUrl
      ? new RateLimiterRedis({
          ...options,
          storeClient: redisStore(redisUrl).client,
          // Fall through to the in-memory limiter at once while Redis is away, never queue.
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
    registry.batonRateLimiters.set(id, limiter);
  }
  if (redisUrl) await redisStore(redisUrl).firstConnection;
  return limiter;
}

interface RedisStore {
  client: Redis;
  /** Settles once the first connection attempt succeeded or failed (at most 2 s). */
  firstConnection: Promise<void>;
}

function redisStore(url: string): RedisStore {
  registry.batonRateLimitRedis ??= new Map();
  const existing = registry.batonRateLimitRedis.get(url);
  if (existing) return existing;
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000, // a stalled Redis delays a request by at most this much
  });
  let unreachable = false;
  client.on("error", (error: Error) => {
    if (unreachable) return;
    unreachable = true;
    log.warn(
      "rate limits: Redis unreachable; counting in this process's memory until it is back",
      error,
    );
  });
  client.on("ready", () => {
    if (!unreachable) return;
    unreachable = false;
    log.warn("rate limits: Redis is back; counting there again");
  });
  const firstConnection = new Promise<void>((resolve) => {
    const settle = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(settle, 2000);
    client.once("ready", settle);
    client.once("error", settle);
  });
  const store = { client, firstConnection };
  registry.batonRateLimitRedis.set(url, store);
  return store;
}

/**
 * PING over the rate limits' own Redis connection (readiness reuses it rather than opening
 * another): false when Redis does not answer within the connection's command timeout.
 */
export async function pingRateLimitRedis(url: string): Promise<boolean> {
  const { client, firstConnection } = redisStore(url);
  await firstConnection;
  return client.ping().then(
    (reply) => reply === "PONG",
    () => false,
  );
}

/** Closes the Redis connections and forgets every limiter (tests; a process that exits). */
export async function closeRateLimits(): Promise<void> {
  const stores = [...(registry.batonRateLimitRedis?.values() ?? [])];
  registry.batonRateLimitRedis = undefined;
  registry.batonRateLimiters = undefined;
  await Promise.all(
    stores.map((store) => store.client.quit().catch(() => store.client.disconnect())),
  );
}
