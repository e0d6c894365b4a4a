// Personal API tokens: `bt_` + 32 random bytes (base64url), shown once; only the sha256 hex and
// a short display prefix are stored. Managed from a browser session, never with a token.
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { BatonError } from "@/core/errors";
import { insertApiToken, listApiTokens, revokeApiToken } from "@/db/queries/api-tokens";
import type { ApiToken, ApiTokenScope } from "@/db/schema";
import type { Actor } from "@/lib/auth/server";
import { type TokenView, tokenViewSchema } from "./schemas";

const API_TOKEN_PREFIX = "bt_";
const TOKEN_PATTERN = /^bt_[A-Za-z0-9_-]{43}$/;
/** `bt_` and 7 characters: enough to tell tokens apart, 42 of 256 bits. */
const DISPLAY_PREFIX_LENGTH = 10;

export function looksLikeApiToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export function hashApiToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

function generateApiToken(): { token: string; hash: string; prefix: string } {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashApiToken(token), prefix: token.slice(0, DISPLAY_PREFIX_LENGTH) };
}

function tokenView(row: ApiToken): TokenView {
  return tokenViewSchema.parse({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  });
}

/*
 * Guests cannot create tokens: a guest account is replaced when its user signs up or signs in,
 * and a long-lived credential must not outlive the account it speaks for without warning.
 */
export async function createApiToken({
  actor,
  name,
  scopes,
}: {
  actor: Actor;
  name: string;
  scopes: ApiTokenScope[];
}): Promise<{ token: string } & TokenView> {
  if (actor.isAnonymous) {
    throw new BatonError(
      "forbidden:guest",
      "Sign up to create API tokens: a guest account ends when you sign up or sign in.",
    );
  }
  const { token, hash, prefix } = generateApiToken();
  const row = await insertApiToken({ userId: actor.id, name, scopes, tokenHash: hash, prefix });
  return { token, ...tokenView(row) };
}

export async function listUserApiTokens({ userId }: { userId: string }): Promise<TokenView[]> {
  return (await listApiTokens({ userId })).map(tokenView);
}

export async function revokeUserApiToken({
  userId,
  tokenId,
}: {
  userId: string;
  tokenId: string;
}): Promise<void> {
  const found = await revokeApiToken({ userId, tokenId });
  if (!found) throw new BatonError("not_found:token", "Token not found.");
}
