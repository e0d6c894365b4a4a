// Who is calling the handoff API: a Better Auth session cookie (every scope) or an API token
// (`Authorization: Bearer bt_…`, its own scopes). `created_by` comes from here, never a body.
import "server-only";
import { BatonError } from "@/core/errors";
import { findApiTokenByHash, touchApiToken } from "@/db/queries/api-tokens";
import type { ApiTokenScope } from "@/db/schema";
import { currentActor } from "@/lib/auth/server";
import { hashApiToken, looksLikeApiToken } from "./api-tokens";

export type ApiScope = ApiTokenScope;

export interface ApiIdentity {
  userId: string;
  /** `user:<id>` for a browser session, `token:<id>` for an API token. */
  createdBy: string;
  via: "session" | "token";
  scopes: readonly ApiScope[];
}

const ALL_SCOPES: readonly ApiScope[] = ["read", "write", "groom"];

function bearerOf(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1]) {
    throw new BatonError("unauthorized:token", "Send the token as Authorization: Bearer <token>.");
  }
  return match[1];
}

async function tokenIdentity(token: string): Promise<ApiIdentity> {
  const invalid = new BatonError("unauthorized:token", "The API token is invalid or revoked.");
  if (!looksLikeApiToken(token)) throw invalid;
  const row = await findApiTokenByHash({ tokenHash: hashApiToken(token) });
  if (!row || row.revokedAt !== null) throw invalid;
  await touchApiToken({ userId: row.userId, tokenId: row.id });
  return { userId: row.userId, createdBy: `token:${row.id}`, via: "token", scopes: row.scopes };
}

/**
 * The caller, or 401: `unauthorized:token` for a bad, unknown or revoked bearer token (a request
 * carrying one never falls back to its cookie), `unauthorized:session` when there is neither.
 */
export async function resolveApiIdentity(
  request: Request,
  { allowSession = true }: { allowSession?: boolean } = {},
): Promise<ApiIdentity> {
  const token = bearerOf(request);
  if (token !== null) return tokenIdentity(token);
  if (!allowSession) {
    throw new BatonError("unauthorized:token", "Send an API token as Authorization: Bearer.");
  }
  const actor = await currentActor(request.headers);
  if (!actor) throw new BatonError("unauthorized:session", "Sign in or send an API token.");
  return { userId: actor.id, createdBy: `user:${actor.id}`, via: "session", scopes: ALL_SCOPES };
}

export function requireScope(identity: ApiIdentity, scope: ApiScope): void {
  if (!identity.scopes.includes(scope)) {
    throw new BatonError("forbidden:scope", `This token lacks the ${scope} scope.`);
  }
}
