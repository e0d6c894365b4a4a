import "server-only";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import { getDb } from "../client";
import { type ApiToken, type ApiTokenScope, apiTokens } from "../schema";

export async function insertApiToken({
  userId,
  name,
  scopes,
  tokenHash,
  prefix,
}: {
  userId: string;
  name: string;
  scopes: ApiTokenScope[];
  tokenHash: string;
  prefix: string;
}): Promise<ApiToken> {
  const [row] = await getDb()
    .insert(apiTokens)
    .values({ userId, name, scopes, tokenHash, prefix })
    .returning();
  if (!row) throw new Error("api token insert returned nothing");
  return row;
}

/** The user's tokens that still work, newest first. */
export async function listApiTokens({ userId }: { userId: string }): Promise<ApiToken[]> {
  return getDb()
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/** Revokes one of the user's tokens; true when it exists (revoking twice is not an error). */
export async function revokeApiToken({
  userId,
  tokenId,
}: {
  userId: string;
  tokenId: string;
}): Promise<boolean> {
  const db = getDb();
  const [revoked] = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)),
    )
    .returning({ id: apiTokens.id });
  if (revoked) return true;
  const [existing] = await db
    .select({ id: apiTokens.id })
    .from(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)));
  return existing !== undefined;
}

/**
 * The token with this hash, revoked or not. The one query without an acting user: it is how a
 * bearer token becomes one, and the hash of a 256-bit secret cannot be guessed.
 */
export async function findApiTokenByHash({
  tokenHash,
}: {
  tokenHash: string;
}): Promise<ApiToken | null> {
  const [row] = await getDb().select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash));
  return row ?? null;
}

/**
 * Records use at most once a minute, so a burst of requests with one token does not queue on
 * that token's row lock.
 */
export async function touchApiToken({
  userId,
  tokenId,
  now = new Date(),
}: {
  userId: string;
  tokenId: string;
  now?: Date;
}): Promise<void> {
  const staleBefore = new Date(now.getTime() - 60_000);
  await getDb()
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiTokens.id, tokenId),
        eq(apiTokens.userId, userId),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore)),
      ),
    );
}
