import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EnvError } from "@/core/env";
import { BatonError } from "@/core/errors";
import {
  clearRateLimit,
  closeRateLimits,
  consumeRateLimit,
  DEFAULT_RATE_LIMITS,
  type RateBucket,
} from "./rate-limit";

afterEach(async () => {
  vi.unstubAllEnvs();
  await closeRateLimits();
});

/** The 429 a consume threw, or null if it went through. */
async function refusal(bucket: RateBucket, key: string): Promise<BatonError | null> {
  try {
    await consumeRateLimit(bucket, key);
    return null;
  } catch (error) {
    if (error instanceof BatonError) return error;
    throw error;
  }
}

describe("consumeRateLimit (in memory)", () => {
  it("lets a user send 60 chat turns a minute by default and refuses the 61st with Retry-After", async () => {
    const user = `user-${randomUUID()}`;
    expect(DEFAULT_RATE_LIMITS.chat).toEqual({ points: 60, durationSeconds: 60 });
    for (let i = 0; i < 60; i++) expect(await refusal("chat", user)).toBeNull();
    const error = await refusal("chat", user);
    expect(error?.code).toBe("rate_limited:requests");
    const response = error?.toResponse();
    expect(response?.status).toBe(429);
    const retryAfter = Number(response?.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = await response?.json();
    expect(body.error.message).toMatch(/Too many messages\. Try again in \d+ seconds?\./);
  });

  it("takes the limit from the environment, and counts each key on its own", async () => {
    vi.stubEnv("BATON_RATE_LIMIT_CHAT", "2/60s");
    const alice = `alice-${randomUUID()}`;
    const bob = `bob-${randomUUID()}`;
    expect(await refusal("chat", alice)).toBeNull();
    expect(await refusal("chat", alice)).toBeNull();
    expect((await refusal("chat", alice))?.status).toBe(429);
    expect(await refusal("chat", bob)).toBeNull();
  });

  it("has a variable for every bucket", async () => {
    const variables: Record<RateBucket, string> = {
      signIn: "BATON_RATE_LIMIT_SIGN_IN",
      signUp: "BATON_RATE_LIMIT_SIGN_UP",
      guest: "BATON_RATE_LIMIT_GUEST",
      chat: "BATON_RATE_LIMIT_CHAT",
      api: "BATON_RATE_LIMIT_API",
    };
    for (const [bucket, variable] of Object.entries(variables) as [RateBucket, string][]) {
      vi.stubEnv(variable, "1/1h");
      const key = `key-${randomUUID()}`;
      expect(await refusal(bucket, key)).toBeNull();
      const error = await refusal(bucket, key);
      expect(error?.status, bucket).toBe(429);
      // The window is an hour: the wait is said in minutes, the header in seconds.
      expect(Number(error?.headers?.["Retry-After"])).toBeGreaterThan(3500);
      expect(error?.message).toMatch(/Try again in 60 minutes\./);
    }
  });

  it("opens again when the window ends", async () => {
    vi.stubEnv("BATON_RATE_LIMIT_API", "1/2s");
    const token = `token-${randomUUID()}`;
    expect(await refusal("api", token)).toBeNull();
    const error = await refusal("api", token);
    expect(["1", "2"]).toContain(error?.headers?.["Retry-After"]);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await refusal("api", token)).toBeNull();
  });

  it("forgets a key's count when it is cleared", async () => {
    vi.stubEnv("BATON_RATE_LIMIT_SIGN_IN", "1/60s");
    const pair = `pair-${randomUUID()}`;
    expect(await refusal("signIn", pair)).toBeNull();
    expect((await refusal("signIn", pair))?.status).toBe(429);
    await clearRateLimit("signIn", pair);
    expect(await refusal("signIn", pair)).toBeNull();
  });

  it("refuses a malformed limit by naming the variable", async () => {
    vi.stubEnv("BATON_RATE_LIMIT_GUEST", "lots");
    const attempt = consumeRateLimit("guest", "anyone");
    await expect(attempt).rejects.toBeInstanceOf(EnvError);
    await expect(attempt).rejects.toThrow(/BATON_RATE_LIMIT_GUEST/);
  });
});
