// Token management over /api/tokens with real Better Auth sessions: created and shown once,
// listed without the secret, revoked with immediate effect; guests and tokens cannot manage.
import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DELETE as revokeRoute } from "@/app/api/tokens/[id]/route";
import { POST as createRoute, GET as listRoute } from "@/app/api/tokens/route";
import { getDb, rowsOf } from "@/db/client";
import { getAuth } from "@/lib/auth/server";
import { guestHeaders } from "../support/auth";
import { artifactOf, bearer, getHandoff, upsert } from "./handoff-support";

const BASE = "http://localhost:3000";

/** A signed-up (non-guest) account's session cookie. */
async function accountHeaders(): Promise<Headers> {
  const origin = new Headers({ origin: BASE, host: "localhost:3000" });
  const response = await getAuth().api.signUpEmail({
    body: { email: `${randomUUID()}@example.test`, password: "correct horse battery", name: "Ada" },
    headers: origin,
    asResponse: true,
  });
  const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0]);
  if (cookies.length === 0) throw new Error(`sign-up gave no cookie (${response.status})`);
  return new Headers({ cookie: cookies.join("; "), origin: BASE, host: "localhost:3000" });
}

async function createToken(headers: Headers, body: unknown) {
  const h = new Headers(headers);
  h.set("content-type", "application/json");
  const res = await createRoute(
    new Request(`${BASE}/api/tokens`, { method: "POST", headers: h, body: JSON.stringify(body) }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function listTokens(headers: Headers) {
  const res = await listRoute(new Request(`${BASE}/api/tokens`, { headers }));
  return { status: res.status, body: (await res.json()) as { tokens: Record<string, unknown>[] } };
}

async function revoke(headers: Headers, id: string) {
  const res = await revokeRoute(
    new Request(`${BASE}/api/tokens/${id}`, { method: "DELETE", headers }),
    { params: Promise.resolve({ id }) },
  );
  return res.status;
}

describe("API tokens", () => {
  it("creating a token shows it once and stores only its sha256 and a display prefix", async () => {
    const headers = await accountHeaders();
    const created = await createToken(headers, { name: "laptop agent", scopes: ["write", "read"] });
    expect(created.status).toBe(201);
    const token = String(created.body.token);
    expect(token).toMatch(/^bt_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({
      name: "laptop agent",
      scopes: ["read", "write"],
      prefix: token.slice(0, 10),
      last_used_at: null,
    });

    const [row] = rowsOf<{ token_hash: string; prefix: string; scopes: string[] }>(
      await getDb().execute(
        sql`select token_hash, prefix, scopes from api_tokens where id = ${String(created.body.id)}`,
      ),
    );
    expect(row?.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    const everything = rowsOf<{ row: string }>(
      await getDb().execute(sql`select t::text as row from api_tokens t`),
    );
    for (const { row: text } of everything) expect(text).not.toContain(token);

    const listed = await listTokens(headers);
    expect(listed.status).toBe(200);
    expect(listed.body.tokens).toHaveLength(1);
    const [entry] = listed.body.tokens;
    expect(Object.keys(entry ?? {}).sort()).toEqual(
      ["created_at", "id", "last_used_at", "name", "prefix", "scopes"].sort(),
    );
    expect(JSON.stringify(listed.body)).not.toContain(token);
  });

  it("records when a token was last used", async () => {
    const headers = await accountHeaders();
    const created = await createToken(headers, { name: "ci", scopes: ["read", "write"] });
    await upsert(bearer(String(created.body.token)), { key: "used", artifact: artifactOf() });
    const [entry] = (await listTokens(headers)).body.tokens;
    expect(entry?.last_used_at).toEqual(expect.any(String));
  });

  it("a revoked token stops working at once and leaves the list; revoking twice is fine", async () => {
    const headers = await accountHeaders();
    const created = await createToken(headers, { name: "old", scopes: ["read"] });
    const auth = bearer(String(created.body.token));
    expect((await getHandoff(auth, "anything")).status).toBe(404);
    expect(await revoke(headers, String(created.body.id))).toBe(204);
    const after = await getHandoff(auth, "anything");
    expect(after.status).toBe(401);
    expect((after.body.error as { code: string }).code).toBe("unauthorized:token");
    expect((await listTokens(headers)).body.tokens).toEqual([]);
    expect(await revoke(headers, String(created.body.id))).toBe(204);
  });

  it("another user's token id, or an unknown one, is 404", async () => {
    const alice = await accountHeaders();
    const bob = await accountHeaders();
    const created = await createToken(alice, { name: "alice", scopes: ["read"] });
    expect(await revoke(bob, String(created.body.id))).toBe(404);
    expect(await revoke(bob, randomUUID())).toBe(404);
    expect(await revoke(bob, "not-a-uuid")).toBe(404);
    const still = await getHandoff(bearer(String(created.body.token)), "x");
    expect(still.status).toBe(404);
  });

  it("a guest cannot create tokens (403 forbidden:guest)", async () => {
    const guest = await guestHeaders();
    const res = await createToken(guest, { name: "g", scopes: ["read"] });
    expect(res.status).toBe(403);
    expect((res.body.error as { code: string }).code).toBe("forbidden:guest");
    expect((await listTokens(guest)).body.tokens).toEqual([]);
  });

  it("a token cannot manage tokens, and nobody can without a session", async () => {
    const headers = await accountHeaders();
    const created = await createToken(headers, { name: "all", scopes: ["read", "write", "groom"] });
    const auth = bearer(String(created.body.token));
    expect((await listTokens(auth)).status).toBe(401);
    expect((await createToken(auth, { name: "child", scopes: ["read"] })).status).toBe(401);
    expect(await revoke(auth, String(created.body.id))).toBe(401);
    expect((await listTokens(new Headers())).status).toBe(401);
  });

  it("malformed bodies are 400 and create nothing", async () => {
    const headers = await accountHeaders();
    for (const body of [
      {},
      { name: "x" },
      { name: "", scopes: ["read"] },
      { name: "x", scopes: [] },
      { name: "x", scopes: ["admin"] },
      { name: "x", scopes: "read" },
      { name: "x", scopes: ["read"], token: "bt_mine" },
    ]) {
      expect((await createToken(headers, body)).status).toBe(400);
    }
    expect((await listTokens(headers)).body.tokens).toEqual([]);
  });
});
