// Calls the handoff routes the way a client does (real Requests into the route handlers) and
// reads whole tables, so tests can say "nothing changed" about every stored byte.

import { sql } from "drizzle-orm";
import { POST as acceptRoute } from "@/app/api/handoffs/[key]/accept/route";
import { POST as cancelRoute } from "@/app/api/handoffs/[key]/cancel/route";
import { POST as continueRoute } from "@/app/api/handoffs/[key]/continue/route";
import { DELETE as deleteOne, GET as getOne } from "@/app/api/handoffs/[key]/route";
import { POST as groomRoute } from "@/app/api/handoffs/groom/route";
import { GET as listRoute, POST as upsertRoute } from "@/app/api/handoffs/route";
import { getDb, rowsOf } from "@/db/client";
import type { ApiTokenScope } from "@/db/schema";
import type { HandoffArtifactInput } from "@/lib/handoff/artifact";
import { createApiToken } from "@/lib/handoff-api/api-tokens";
import { createTestUser } from "../support/users";

const BASE = "http://localhost:3000";

export function bearer(token: string): Headers {
  return new Headers({ authorization: `Bearer ${token}` });
}

/** A user with an API token of the given scopes (created as a signed-up account would). */
export async function userWithToken(
  scopes: ApiTokenScope[] = ["read", "write", "groom"],
): Promise<{ userId: string; token: string; headers: Headers }> {
  const userId = await createTestUser();
  const token = await tokenFor(userId, scopes);
  return { userId, token, headers: bearer(token) };
}

export async function tokenFor(userId: string, scopes: ApiTokenScope[]): Promise<string> {
  const created = await createApiToken({
    actor: { id: userId, isAnonymous: false, email: `${userId}@example.test`, name: "tester" },
    name: `test ${scopes.join("+")}`,
    scopes,
  });
  return created.token;
}

export function artifactOf(overrides: Partial<HandoffArtifactInput> = {}): HandoffArtifactInput {
  return { goal: "Ship the handoff API", state_summary: "Routes drafted", ...overrides };
}

function withJson(headers: Headers): Headers {
  const h = new Headers(headers);
  h.set("content-type", "application/json");
  return h;
}

const keyContext = (key: string) => ({ params: Promise.resolve({ key }) });

/** Responses read once, so tests can assert on status and body together. */
export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

async function answer<T>(response: Response): Promise<Answer<T>> {
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

export async function upsert(headers: Headers, body: unknown | string): Promise<Answer> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return answer(
    await upsertRoute(
      new Request(`${BASE}/api/handoffs`, {
        method: "POST",
        headers: withJson(headers),
        body: text,
      }),
    ),
  );
}

export async function getHandoff(
  headers: Headers,
  key: string,
  revision?: number,
): Promise<Answer> {
  const query = revision === undefined ? "" : `?revision=${revision}`;
  return answer(
    await getOne(
      new Request(`${BASE}/api/handoffs/${encodeURIComponent(key)}${query}`, { headers }),
      keyContext(key),
    ),
  );
}

export async function listPage(
  headers: Headers,
  query: Record<string, string> = {},
): Promise<Answer<{ handoffs: Record<string, unknown>[]; next_cursor: string | null }>> {
  const params = new URLSearchParams(query);
  return answer(await listRoute(new Request(`${BASE}/api/handoffs?${params}`, { headers })));
}

export async function deleteHandoff(headers: Headers, key: string): Promise<Answer> {
  return answer(
    await deleteOne(
      new Request(`${BASE}/api/handoffs/${encodeURIComponent(key)}`, { method: "DELETE", headers }),
      keyContext(key),
    ),
  );
}

async function postKeyed(
  route: (request: Request, context: { params: Promise<{ key: string }> }) => Promise<Response>,
  path: string,
  headers: Headers,
  key: string,
  body?: unknown,
): Promise<Answer> {
  return answer(
    await route(
      new Request(`${BASE}/api/handoffs/${encodeURIComponent(key)}/${path}`, {
        method: "POST",
        headers: withJson(headers),
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      keyContext(key),
    ),
  );
}

export const acceptHandoff = (headers: Headers, key: string, body: unknown) =>
  postKeyed(acceptRoute, "accept", headers, key, body);
export const cancelHandoff = (headers: Headers, key: string, body?: unknown) =>
  postKeyed(cancelRoute, "cancel", headers, key, body);
export const continueHandoff = (headers: Headers, key: string, body?: unknown) =>
  postKeyed(continueRoute, "continue", headers, key, body);

export async function groom(headers: Headers): Promise<Answer> {
  return answer(
    await groomRoute(new Request(`${BASE}/api/handoffs/groom`, { method: "POST", headers })),
  );
}

/** Every row of the handoff tables as text, in a stable order. */
export async function handoffTables(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of ["handoffs", "handoff_revisions", "handoff_receipts"]) {
    // Table names come from the fixed list above, never from input.
    const result = await getDb().execute(
      sql.raw(`select t::text as row from ${table} t order by t::text`),
    );
    out[table] = rowsOf<{ row: string }>(result).map((r) => r.row);
  }
  return out;
}

export async function countRows(table: string): Promise<number> {
  const result = await getDb().execute(sql.raw(`select count(*)::int as n from ${table}`));
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}
