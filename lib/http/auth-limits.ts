// Rate limits on Better Auth's public endpoints (its own limiter is off, so these are the only
// ones). Failed sign-ins count per (client address, account): an attacker elsewhere can exhaust
// only their own budget, never lock the account's owner out, and a successful sign-in clears the
// count. Sign-ups and guest sessions count per client address.
import "server-only";
import { createHash } from "node:crypto";
import { log } from "@/core/log";
import { clientNetwork, UNKNOWN_CLIENT } from "./client-ip";
import { clearRateLimit, consumeRateLimit, type RateBucket } from "./rate-limit";

const AUTH_BASE_PATH = "/api/auth";

/** Better Auth endpoints (below its base path) → their bucket. */
const LIMITED: Record<string, RateBucket> = {
  "/sign-in/email": "signIn",
  "/sign-up/email": "signUp",
  "/sign-in/anonymous": "guest",
};

export interface AuthAttempt {
  bucket: RateBucket;
  key: string;
}

/**
 * Counts the request against its bucket before Better Auth sees it; throws the 429 when the
 * bucket is full. Returns what `recordAuthOutcome` needs, or null for an unlimited endpoint.
 * `rawBody` is the request's body text (the route has read it, size-limited).
 */
export async function limitAuthRequest(
  request: Request,
  rawBody: string,
): Promise<AuthAttempt | null> {
  if (request.method.toUpperCase() !== "POST") return null;
  const bucket = bucketOf(new URL(request.url).pathname);
  if (!bucket) return null;
  const network = clientNetwork(request);
  const key = bucket === "signIn" ? `${network}|${accountKey(rawBody)}` : network;
  try {
    await consumeRateLimit(bucket, key);
  } catch (error) {
    if (network === UNKNOWN_CLIENT) warnSharedBudget(bucket);
    throw error;
  }
  return { bucket, key };
}

/** After Better Auth answered: a successful sign-in forgets that pair's failed attempts. */
export async function recordAuthOutcome(
  attempt: AuthAttempt | null,
  response: Response,
): Promise<void> {
  if (attempt?.bucket === "signIn" && response.ok) await clearRateLimit("signIn", attempt.key);
}

function bucketOf(pathname: string): RateBucket | null {
  if (!pathname.startsWith(`${AUTH_BASE_PATH}/`)) return null;
  const path = pathname.slice(AUTH_BASE_PATH.length).replace(/(.)\/$/, "$1");
  return LIMITED[path] ?? null;
}

/**
 * The account a sign-in names, as a hash (fixed length, and no address in the limiter's store).
 * Better Auth compares emails case-insensitively, so the key does too.
 */
function accountKey(rawBody: string): string {
  return createHash("sha256").update(emailOf(rawBody)).digest("hex").slice(0, 32);
}

function emailOf(rawBody: string): string {
  let email: unknown;
  try {
    const body: unknown = JSON.parse(rawBody);
    if (body && typeof body === "object") email = (body as { email?: unknown }).email;
  } catch {
    // Not JSON: Better Auth refuses it; it still counts, against the empty account.
  }
  return typeof email === "string" ? email.trim().toLowerCase() : "";
}

let warned = false;

function warnSharedBudget(bucket: RateBucket): void {
  if (warned) return;
  warned = true;
  log.warn(
    "rate limit reached with no known client address, so every client shares one budget. " +
      "Behind a reverse proxy, set BATON_TRUST_PROXY to the number of proxies.",
    undefined,
    { bucket },
  );
}
