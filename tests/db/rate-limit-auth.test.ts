// Rate limits on Better Auth's endpoints, through the real route handler and a real database:
// failed sign-ins per (client address, account), sign-ups and guest sessions per address.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/api/auth/[...all]/route";
import { closeRateLimits } from "@/lib/http/rate-limit";

const ORIGIN = "http://localhost:3000";
const PASSWORD = "correct horse battery";

/** A POST to Better Auth as a browser at `ip` sends it, behind one trusted proxy. */
function authPost(path: string, body: unknown, ip: string): Promise<Response> {
  const request = new Request(`${ORIGIN}/api/auth${path}`, {
    method: "POST",
    headers: {
      host: "localhost:3000",
      origin: ORIGIN,
      "content-type": "application/json",
      // The leftmost entry is what the client claimed; the proxy appended the address it saw.
      "x-forwarded-for": `10.0.0.1, ${ip}`,
    },
    body: JSON.stringify(body),
  });
  return POST(request, { params: Promise.resolve({ all: path.split("/").filter(Boolean) }) });
}

function signIn(email: string, password: string, ip: string): Promise<Response> {
  return authPost("/sign-in/email", { email, password }, ip);
}

async function signUp(ip: string): Promise<string> {
  const email = `${randomUUID()}@example.test`;
  const response = await authPost("/sign-up/email", { email, password: PASSWORD, name: "V" }, ip);
  expect(response.status, await response.clone().text()).toBe(200);
  return email;
}

async function expectRefused(response: Response, windowSeconds: number): Promise<void> {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect((await response.json()).error.code).toBe("rate_limited:requests");
}

beforeEach(() => {
  vi.stubEnv("BATON_TRUST_PROXY", "1");
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await closeRateLimits();
});

describe("sign-in", () => {
  it("refuses the 11th failed sign-in from one address, while the owner signs in from another", async () => {
    const victim = await signUp("203.0.113.1");
    const attacker = "198.51.100.66";
    for (let i = 0; i < 10; i++) {
      expect((await signIn(victim, `wrong-password-${i}`, attacker)).status).toBe(401);
    }
    await expectRefused(await signIn(victim, "wrong-password-10", attacker), 60);
    // Refused before the password is checked: the right one does not get through either, nor
    // the same account spelled in capitals.
    await expectRefused(await signIn(victim, PASSWORD, attacker), 60);
    await expectRefused(await signIn(victim.toUpperCase(), PASSWORD, attacker), 60);

    const owner = await signIn(victim, PASSWORD, "203.0.113.1");
    expect(owner.status).toBe(200);
    expect(owner.headers.getSetCookie().some((c) => c.includes("session_token="))).toBe(true);
    // The attacker's address is not blocked for other accounts: the count is per pair.
    const other = await signUp("203.0.113.2");
    expect((await signIn(other, "wrong-password", attacker)).status).toBe(401);
  });

  it("forgets the failures of an address once it signs in successfully", async () => {
    const email = await signUp("203.0.113.3");
    const ip = "198.51.100.3";
    for (let i = 0; i < 9; i++) expect((await signIn(email, "typo-typo", ip)).status).toBe(401);
    expect((await signIn(email, PASSWORD, ip)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await signIn(email, "typo-typo", ip)).status).toBe(401);
    await expectRefused(await signIn(email, "typo-typo", ip), 60);
  });

  it("takes its limit from BATON_RATE_LIMIT_SIGN_IN, the only limiter on the endpoint", async () => {
    vi.stubEnv("BATON_RATE_LIMIT_SIGN_IN", "2/30s");
    const email = await signUp("203.0.113.4");
    const ip = "198.51.100.4";
    expect((await signIn(email, "wrong-one", ip)).status).toBe(401);
    expect((await signIn(email, "wrong-two", ip)).status).toBe(401);
    await expectRefused(await signIn(email, "wrong-three", ip), 30);

    // A generous limit is the whole story: Better Auth's own limiter (3 sign-ins per 10 s when
    // on) would refuse these.
    vi.stubEnv("BATON_RATE_LIMIT_SIGN_IN", "100/60s");
    for (let i = 0; i < 15; i++) {
      expect((await signIn(email, "wrong-again", "198.51.100.5")).status).toBe(401);
    }
  });
});

describe("sign-up and guests", () => {
  it("limits sign-ups per address", async () => {
    vi.stubEnv("BATON_RATE_LIMIT_SIGN_UP", "2/1h");
    await signUp("203.0.113.10");
    await signUp("203.0.113.10");
    const third = await authPost(
      "/sign-up/email",
      { email: `${randomUUID()}@example.test`, password: PASSWORD, name: "V" },
      "203.0.113.10",
    );
    await expectRefused(third, 3600);
    await signUp("203.0.113.11");
  });

  it("limits guest sessions per address, an IPv6 client by its /64", async () => {
    vi.stubEnv("BATON_RATE_LIMIT_GUEST", "3/60s");
    const guest = (ip: string) => authPost("/sign-in/anonymous", undefined, ip);
    expect((await guest("2001:db8:1:2::a")).status).toBe(200);
    expect((await guest("2001:db8:1:2::b")).status).toBe(200);
    expect((await guest("2001:db8:1:2:ffff::c")).status).toBe(200);
    await expectRefused(await guest("2001:db8:1:2::d"), 60);
    const elsewhere = await guest("2001:db8:1:3::a");
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.getSetCookie().length).toBeGreaterThan(0);
  });

  it("ignores a forged X-Forwarded-For when no proxy is trusted", async () => {
    vi.stubEnv("BATON_TRUST_PROXY", "0");
    vi.stubEnv("BATON_RATE_LIMIT_GUEST", "2/60s");
    const guest = (ip: string) => authPost("/sign-in/anonymous", undefined, ip);
    expect((await guest("192.0.2.1")).status).toBe(200);
    expect((await guest("192.0.2.2")).status).toBe(200);
    await expectRefused(await guest("192.0.2.3"), 60);
  });
});
