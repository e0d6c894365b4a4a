// Rate limits on the production build with their default values: the e2e servers raise every
// limit, so this spec starts a server of its own (behind "one trusted proxy", which the requests
// play by writing X-Forwarded-For, and on the machine's Redis when there is one; without Redis
// the same limits are counted in memory).
import { type ChildProcess, spawn } from "node:child_process";
import { randomInt, randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { type APIRequestContext, expect, test } from "@playwright/test";

let server: ChildProcess | null = null;
let base = "";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null) throw new Error(`server exited with ${server?.exitCode}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BATON_TRUST_PROXY: "1",
    REDIS_URL: "redis://127.0.0.1:6379",
    // Multi-server mode (REDIS_URL) refuses to start without a shared secret.
    BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET || "e2e-rate-limits-secret-0123456789abcdef",
  };
  for (const name of Object.keys(env)) if (name.startsWith("BATON_RATE_LIMIT_")) delete env[name];
  server = spawn("node", ["e2e/serve.mjs", String(port)], { env, stdio: "inherit" });
  await waitForHealth(`${base}/api/health`, 170_000);
});

test.afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server?.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
});

/** A random address per run: counts kept in Redis outlive a run by up to a window. */
function someAddress(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

function authPost(request: APIRequestContext, path: string, data: unknown, ip: string) {
  return request.post(`${base}/api/auth${path}`, {
    data,
    headers: { origin: base, "x-forwarded-for": `192.0.2.1, ${ip}` },
  });
}

test("the 11th failed sign-in from one address is refused while the owner signs in from another", async ({
  playwright,
}) => {
  // A fresh context per "client", so no session cookie carries over between them.
  const client = () => playwright.request.newContext();
  const owner = someAddress();
  const attacker = someAddress();
  const email = `${randomUUID()}@example.test`;
  const password = "correct horse battery";

  const signUp = await authPost(
    await client(),
    "/sign-up/email",
    { email, password, name: "V" },
    owner,
  );
  expect(signUp.status()).toBe(200);

  const guesser = await client();
  for (let i = 0; i < 10; i++) {
    const attempt = await authPost(
      guesser,
      "/sign-in/email",
      { email, password: `guess-${i}` },
      attacker,
    );
    expect(attempt.status()).toBe(401);
  }
  const refused = await authPost(guesser, "/sign-in/email", { email, password }, attacker);
  expect(refused.status()).toBe(429);
  const retryAfter = Number(refused.headers()["retry-after"]);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect((await refused.json()).error.code).toBe("rate_limited:requests");

  const signIn = await authPost(await client(), "/sign-in/email", { email, password }, owner);
  expect(signIn.status()).toBe(200);
  expect(signIn.headers()["set-cookie"]).toContain("session_token=");
});

test("guest sessions are limited per address (30 a minute)", async ({ playwright }) => {
  const ip = someAddress();
  const statuses: number[] = [];
  for (let i = 0; i < 31; i++) {
    const context = await playwright.request.newContext();
    statuses.push((await authPost(context, "/sign-in/anonymous", undefined, ip)).status());
    await context.dispose();
  }
  expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
  expect(statuses[30]).toBe(429);
  const other = await playwright.request.newContext();
  expect((await authPost(other, "/sign-in/anonymous", undefined, someAddress())).status()).toBe(
    200,
  );
});
