// The Redis store, against a real Redis: 127.0.0.1:6379 (running on the project's machines and
// in CI, where a missing Redis fails this file instead of skipping it).
import { randomUUID } from "node:crypto";
import { connect } from "node:net";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { BatonError } from "@/core/errors";
import { closeRateLimits, consumeRateLimit } from "./rate-limit";

const REDIS_URL = "redis://127.0.0.1:6379";

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, timeout: 1000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const available = process.env.CI === "true" || (await reachable(6379));
const used: string[] = [];

afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await closeRateLimits();
});

async function status(key: string): Promise<number> {
  try {
    await consumeRateLimit("chat", key);
    return 200;
  } catch (error) {
    if (error instanceof BatonError) return error.status;
    throw error;
  }
}

describe.skipIf(!available)("rate limits on Redis", () => {
  const inspector = new Redis(REDIS_URL, { lazyConnect: true });

  afterAll(async () => {
    if (used.length > 0) await inspector.del(...used);
    await inspector.quit();
  });

  it("keeps the counts in Redis, shared by every process, expiring with the window", async () => {
    vi.stubEnv("REDIS_URL", REDIS_URL);
    vi.stubEnv("BATON_RATE_LIMIT_CHAT", "3/60s");
    const user = `test-${randomUUID()}`;
    used.push(`baton:rl:chat:${user}`);
    for (let i = 0; i < 3; i++) expect(await status(user)).toBe(200);
    expect(await inspector.get(`baton:rl:chat:${user}`)).toBe("3");
    const ttl = await inspector.pttl(`baton:rl:chat:${user}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);

    // A fresh limiter and connection, as another Baton process would have: the count holds.
    await closeRateLimits();
    expect(await status(user)).toBe(429);
    const other = `test-${randomUUID()}`;
    used.push(`baton:rl:chat:${other}`);
    expect(await status(other)).toBe(200);
  });

  it("keeps limiting, in memory, while Redis is unreachable", async () => {
    const warn = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    vi.stubEnv("REDIS_URL", "redis://127.0.0.1:1"); // nothing listens on port 1
    vi.stubEnv("BATON_RATE_LIMIT_CHAT", "2/60s");
    const user = `test-${randomUUID()}`;
    const started = Date.now();
    expect(await status(user)).toBe(200);
    expect(await status(user)).toBe(200);
    expect(await status(user)).toBe(429);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^\[baton\] rate limits: Redis unreachable/),
    );
  });
});
