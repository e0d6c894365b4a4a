// Tool-server tokens at rest: AES-256-GCM under a key derived (HKDF-SHA256) from the auth secret.
// A sealed value is `v1.<key id>.<iv>.<ciphertext+tag>` (base64url); the key id is the start of
// a hash of the derived key, so a token sealed under another secret is recognised as such and
// reported unreadable (the user enters it again) instead of failing as corrupt.
import "server-only";
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { serverEnv } from "@/core/env";
import { dataDir } from "@/db/client";
import { resolveAuthSecret } from "@/lib/auth/secret";

const INFO = "baton/tool-server-token/v1";
const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

interface SealKey {
  key: Buffer;
  id: string;
}

const keys = new Map<string, SealKey>();

/** The sealing key for `secret` (derived once per secret). */
export function sealKeyFor(secret: string): SealKey {
  let known = keys.get(secret);
  if (!known) {
    const key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), INFO, 32));
    const id = createHash("sha256").update(key).digest().subarray(0, 8).toString("base64url");
    known = { key, id };
    keys.set(secret, known);
  }
  return known;
}

/** The key of the auth secret this server runs with (BETTER_AUTH_SECRET or the generated one). */
function currentSealKey(): SealKey {
  const env = serverEnv();
  return sealKeyFor(resolveAuthSecret(dataDir(env), env));
}

export function sealToken(token: string, key: SealKey = currentSealKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key.key, iv);
  const body = Buffer.concat([cipher.update(token, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return [VERSION, key.id, iv.toString("base64url"), body.toString("base64url")].join(".");
}

/**
 * The token inside `sealed`, or null when it cannot be read: sealed under another secret (the
 * key id differs), tampered with, or not a sealed value at all.
 */
export function openToken(sealed: string, key: SealKey = currentSealKey()): string | null {
  const [version, id, ivText, bodyText, ...rest] = sealed.split(".");
  if (version !== VERSION || id !== key.id || !ivText || !bodyText || rest.length > 0) return null;
  const iv = Buffer.from(ivText, "base64url");
  const body = Buffer.from(bodyText, "base64url");
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, iv);
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(body.subarray(0, -TAG_BYTES)), decipher.final()]);
    return plain.toString("utf8");
  } catch {
    return null;
  }
}
