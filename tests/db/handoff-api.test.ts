import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { transferHandoffs } from "@/db/queries/handoff-merge";
import { getHandoffWithRevision } from "@/db/queries/handoff-reads";
import { listThreadMessages } from "@/db/queries/messages";
import { listSessions } from "@/db/queries/sessions";
import { deleteThread, ensureThread } from "@/db/queries/threads";
import { handoffReceipts, handoffs } from "@/db/schema";
import { currentActor } from "@/lib/auth/server";
import { HANDOFF_SCHEMA_VERSION, handoffArtifactSchema } from "@/lib/handoff/artifact";
import { contentId } from "@/lib/handoff/content-id";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { writeHandoff } from "@/lib/handoff/write";
import { revokeUserApiToken } from "@/lib/handoff-api/api-tokens";
import { guestHeaders } from "../support/auth";
import { replyText, sendTurn } from "../support/chat";
import {
  acceptHandoff,
  artifactOf,
  bearer,
  cancelHandoff,
  continueHandoff,
  countRows,
  deleteHandoff,
  getHandoff,
  groom,
  handoffTables,
  listPage,
  tokenFor,
  upsert,
  userWithToken,
} from "./handoff-support";
import { malformedWriteBodies } from "./handoff-write-bodies";

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
});

const uniqueKey = (label: string) => `${label}-${randomBytes(4).toString("hex")}`;
type Body = Record<string, unknown>;
const errorOf = (body: Body) => body.error as { code: string; message: string; fields?: Body };

describe("retry-safe protocol", () => {
  it("duplicate delivery: the same packet twice is stored once and answered with the original record", async () => {
    const { headers } = await userWithToken();
    const packet = { key: uniqueKey("dup"), revision: 1, artifact: artifactOf() };
    const first = await upsert(headers, packet);
    expect(first.status).toBe(201);
    const before = await handoffTables();

    const second = await upsert(headers, packet);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await handoffTables()).toEqual(before);

    // Without a revision, an artifact equal to the current one is a duplicate too.
    const third = await upsert(headers, { key: packet.key, artifact: artifactOf() });
    expect(third.status).toBe(200);
    expect(third.body).toEqual(first.body);
    expect(await handoffTables()).toEqual(before);
  });

  it("without a revision, a changed artifact becomes the current revision + 1", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("next");
    expect((await upsert(headers, { key, artifact: artifactOf() })).body.revision).toBe(1);
    const next = await upsert(headers, { key, artifact: artifactOf({ next_step: "Write tests" }) });
    expect(next).toMatchObject({ status: 201, body: { revision: 2, state: "prepared" } });
    const old = await getHandoff(headers, key, 1);
    expect(old).toMatchObject({ status: 200, body: { revision: 1, state: "superseded" } });
    expect((await getHandoff(headers, key)).body.revision).toBe(2);
    expect((await getHandoff(headers, key, 3)).status).toBe(404);
  });

  it("dropped acknowledgement then retry: the retried accept returns the same receipt", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("ack");
    const stored = await upsert(headers, { key, revision: 1, artifact: artifactOf() });
    const accept = { id: stored.body.id, receiver: "agent:reviewer" };

    const first = await acceptHandoff(headers, key, accept);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      key,
      id: stored.body.id,
      revision: 1,
      receiver: "agent:reviewer",
    });
    // The client never saw that answer (the connection dropped) and sends the request again.
    const retry = await acceptHandoff(headers, key, accept);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect((await getHandoff(headers, key)).body.state).toBe("accepted");
    const receipts = await getDb().select().from(handoffReceipts);
    expect(
      receipts.filter((r) => r.receiver === "agent:reviewer" && r.contentId === stored.body.id),
    ).toHaveLength(1);
  });

  it("accepting a revision that is no longer current is 409 and writes no receipt", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("acc-stale");
    const one = await upsert(headers, { key, revision: 1, artifact: artifactOf() });
    await upsert(headers, { key, revision: 2, artifact: artifactOf({ next_step: "two" }) });
    const before = await handoffTables();
    const stale = await acceptHandoff(headers, key, { id: one.body.id, receiver: "agent:late" });
    expect(stale.status).toBe(409);
    expect(errorOf(stale.body).code).toBe("conflict:stale_revision");
    expect(await handoffTables()).toEqual(before);
  });

  it("stale revision: a lower revision is 409 conflict:stale_revision and nothing changes", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("stale");
    await upsert(headers, { key, revision: 1, artifact: artifactOf() });
    await upsert(headers, { key, revision: 3, artifact: artifactOf({ next_step: "three" }) });
    const before = await handoffTables();

    const lower = await upsert(headers, {
      key,
      revision: 2,
      artifact: artifactOf({ next_step: "two" }),
    });
    expect(lower.status).toBe(409);
    expect(errorOf(lower.body).code).toBe("conflict:stale_revision");
    expect(await handoffTables()).toEqual(before);
    expect((await getHandoff(headers, key)).body).toMatchObject({ revision: 3, state: "prepared" });
  });

  it("same revision with other content: 409 conflict:stale_revision and nothing changes", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("same-rev");
    await upsert(headers, { key, revision: 4, artifact: artifactOf() });
    const before = await handoffTables();
    const other = await upsert(headers, {
      key,
      revision: 4,
      artifact: artifactOf({ state_summary: "Someone else's summary" }),
    });
    expect(other.status).toBe(409);
    expect(errorOf(other.body).code).toBe("conflict:stale_revision");
    expect(await handoffTables()).toEqual(before);
    // An older revision whose content differs from what history holds is stale as well.
    const key2 = uniqueKey("old-rev");
    await upsert(headers, { key: key2, revision: 1, artifact: artifactOf() });
    await upsert(headers, { key: key2, revision: 2, artifact: artifactOf({ next_step: "2" }) });
    const snapshot = await handoffTables();
    const rewrite = await upsert(headers, {
      key: key2,
      revision: 1,
      artifact: artifactOf({ goal: "rewritten" }),
    });
    expect(rewrite.status).toBe(409);
    expect(await handoffTables()).toEqual(snapshot);
  });

  it("cancellation: the current revision becomes cancelled, idempotently, and is neither open nor acceptable", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("cancel");
    const stored = await upsert(headers, { key, revision: 1, artifact: artifactOf() });
    expect(
      (await listPage(headers, { state: "prepared" })).body.handoffs.map((h) => h.key),
    ).toContain(key);

    const cancelled = await cancelHandoff(headers, key);
    expect(cancelled).toMatchObject({
      status: 200,
      body: { key, revision: 1, state: "cancelled" },
    });
    const again = await cancelHandoff(headers, key, { id: stored.body.id });
    expect(again.body).toEqual(cancelled.body);

    expect(
      (await listPage(headers, { state: "prepared" })).body.handoffs.map((h) => h.key),
    ).not.toContain(key);
    expect(
      (await listPage(headers, { state: "cancelled" })).body.handoffs.map((h) => h.key),
    ).toContain(key);
    const accept = await acceptHandoff(headers, key, { id: stored.body.id, receiver: "agent:x" });
    expect(accept.status).toBe(409);
    expect(errorOf(accept.body).code).toBe("conflict:handoff_cancelled");
    expect((await continueHandoff(headers, key)).status).toBe(409);

    // A newer revision opens the handoff again; a cancel naming the old revision is stale.
    const next = await upsert(headers, { key, artifact: artifactOf({ next_step: "resume" }) });
    expect(next.body).toMatchObject({ revision: 2, state: "prepared" });
    expect((await getHandoff(headers, key, 1)).body.state).toBe("superseded");
    const staleCancel = await cancelHandoff(headers, key, { id: stored.body.id });
    expect(staleCancel.status).toBe(409);
    expect((await getHandoff(headers, key)).body.state).toBe("prepared");
    expect((await cancelHandoff(headers, uniqueKey("missing"))).status).toBe(404);
  });

  it("delivery and listing cause no message and no run", async () => {
    const { userId, headers } = await userWithToken();
    const actor = { id: userId, isAnonymous: false, email: null, name: "tester" };
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "remember the harbour opens at six");
    const counts = async () => ({
      messages: await countRows("messages"),
      runs: await countRows("thread_resets"),
      sessions: await countRows("sessions"),
      threads: await countRows("threads"),
    });
    const before = await counts();
    expect(before.messages).toBeGreaterThan(0);

    const key = uniqueKey("quiet");
    const stored = await upsert(headers, {
      key,
      artifact: artifactOf({ next_step: "Run it now" }),
    });
    expect(stored.status).toBe(201);
    await upsert(headers, { key, artifact: artifactOf({ next_step: "Run it now" }) });
    await listPage(headers);
    await listPage(headers, { state: "prepared" });
    await getHandoff(headers, key);
    await acceptHandoff(headers, key, { id: stored.body.id, receiver: "agent:reader" });
    await new Promise((resolve) => setTimeout(resolve, 200)); // anything started in the background
    expect(await counts()).toEqual(before);
  });
});

describe("malformed packets", () => {
  const cases = malformedWriteBodies;

  it.each(cases)("%s → 400 with the field error, nothing stored", async (_name, body, field) => {
    const { headers } = await userWithToken();
    const before = await handoffTables();
    const res = await upsert(headers, typeof body === "string" ? body : JSON.stringify(body));
    expect(res.status).toBe(400);
    const error = errorOf(res.body);
    expect(error.code).toMatch(/^bad_request:/);
    if (field) expect(Object.keys(error.fields ?? {})).toContain(field);
    expect(await handoffTables()).toEqual(before);
  });

  it("authenticates first: a malformed packet without credentials is 401 and reads nothing", async () => {
    const res = await upsert(new Headers(), { key: "x" });
    expect([res.status, errorOf(res.body).code]).toEqual([401, "unauthorized:session"]);
  });

  it("bad keys in paths and malformed accept bodies → 400, nothing stored", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("paths");
    const stored = await upsert(headers, { key, artifact: artifactOf() });
    const before = await handoffTables();
    for (const bad of ["bad key", "groom", "-dash-first", "k".repeat(129)]) {
      const res = await getHandoff(headers, bad);
      expect([res.status, errorOf(res.body).code]).toEqual([400, "bad_request:key"]);
    }
    expect((await getHandoff(headers, key, 0)).status).toBe(400);
    for (const body of [
      {},
      { id: stored.body.id },
      { receiver: "agent:x" },
      { id: "not-a-content-id", receiver: "agent:x" },
      { id: stored.body.id, receiver: "" },
      { id: stored.body.id, receiver: "line\nbreak" },
      { id: stored.body.id, receiver: "agent:x", extra: true },
    ]) {
      expect((await acceptHandoff(headers, key, body)).status).toBe(400);
    }
    expect((await cancelHandoff(headers, key, { id: 5 })).status).toBe(400);
    expect((await listPage(headers, { limit: "0" })).status).toBe(400);
    expect((await listPage(headers, { state: "open" })).status).toBe(400);
    expect((await listPage(headers, { cursor: "forged" })).body).toMatchObject({
      error: { code: "bad_request:cursor" },
    });
    expect(await handoffTables()).toEqual(before);
  });
});

describe("authorization", () => {
  it("another user's token gets 404 for read and delete and sees none of the first user's handoffs", async () => {
    const alice = await userWithToken();
    const bob = await userWithToken();
    const key = uniqueKey("private");
    const stored = await upsert(alice.headers, { key, artifact: artifactOf() });
    expect(stored.status).toBe(201);

    for (const res of [
      await getHandoff(bob.headers, key),
      await getHandoff(bob.headers, key, 1),
      await deleteHandoff(bob.headers, key),
      await acceptHandoff(bob.headers, key, { id: stored.body.id, receiver: "agent:bob" }),
      await cancelHandoff(bob.headers, key),
      await continueHandoff(bob.headers, key),
    ]) {
      expect(res.status).toBe(404);
      expect(errorOf(res.body).code).toBe("not_found:handoff");
    }
    const bobsList = await listPage(bob.headers, { limit: "100" });
    expect(bobsList.status).toBe(200);
    expect(bobsList.body.handoffs).toEqual([]);
    expect((await getHandoff(alice.headers, key)).body).toMatchObject({ state: "prepared" });
  });

  it("the same key used by two users names two different records", async () => {
    const alice = await userWithToken();
    const bob = await userWithToken();
    const key = uniqueKey("shared-name");
    const a = await upsert(alice.headers, {
      key,
      revision: 1,
      artifact: artifactOf({ goal: "Alice's" }),
    });
    const b = await upsert(bob.headers, {
      key,
      revision: 1,
      artifact: artifactOf({ goal: "Bob's" }),
    });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((await getHandoff(alice.headers, key)).body).toMatchObject({
      artifact: { goal: "Alice's" },
    });
    expect((await getHandoff(bob.headers, key)).body).toMatchObject({
      artifact: { goal: "Bob's" },
    });
    const rows = await getDb().select().from(handoffs).where(sql`${handoffs.handoffKey} = ${key}`);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2);
    expect(new Set(rows.map((r) => r.ownerId))).toEqual(new Set([alice.userId, bob.userId]));
  });

  it("a read-only token cannot write, accept, cancel, delete or groom (403 forbidden:scope)", async () => {
    const owner = await userWithToken();
    const readOnly = bearer(await tokenFor(owner.userId, ["read"]));
    const key = uniqueKey("ro");
    const stored = await upsert(owner.headers, { key, artifact: artifactOf() });
    const before = await handoffTables();

    for (const res of [
      await upsert(readOnly, { key: uniqueKey("ro-new"), artifact: artifactOf() }),
      await acceptHandoff(readOnly, key, { id: stored.body.id, receiver: "agent:ro" }),
      await cancelHandoff(readOnly, key),
      await deleteHandoff(readOnly, key),
      await groom(readOnly),
    ]) {
      expect(res.status).toBe(403);
      expect(errorOf(res.body).code).toBe("forbidden:scope");
    }
    expect(await handoffTables()).toEqual(before);
    expect((await getHandoff(readOnly, key)).status).toBe(200);
    expect((await listPage(readOnly)).status).toBe(200);
    // A write-only token cannot delete either: deleting needs groom.
    const writeOnly = bearer(await tokenFor(owner.userId, ["write"]));
    expect((await deleteHandoff(writeOnly, key)).status).toBe(403);
    expect((await getHandoff(writeOnly, key)).status).toBe(403);
  });

  it("a revoked token gets 401 unauthorized:token; no credentials get 401 unauthorized:session", async () => {
    const owner = await userWithToken();
    const key = uniqueKey("revoked");
    expect((await upsert(owner.headers, { key, artifact: artifactOf() })).status).toBe(201);
    const [row] = rowsOf<{ id: string }>(
      await getDb().execute(sql`select id from api_tokens where user_id = ${owner.userId}`),
    );
    await revokeUserApiToken({ userId: owner.userId, tokenId: row?.id ?? "" });

    for (const res of [
      await getHandoff(owner.headers, key),
      await listPage(owner.headers),
      await upsert(owner.headers, { key, artifact: artifactOf({ goal: "after revoke" }) }),
    ]) {
      expect(res.status).toBe(401);
      expect(errorOf(res.body).code).toBe("unauthorized:token");
    }
    const unknown = bearer(`bt_${randomBytes(32).toString("base64url")}`);
    expect(errorOf((await getHandoff(unknown, key)).body).code).toBe("unauthorized:token");
    expect(
      errorOf((await getHandoff(new Headers({ authorization: "Basic eDp5" }), key)).body).code,
    ).toBe("unauthorized:token");
    const anonymous = await getHandoff(new Headers(), key);
    expect([anonymous.status, errorOf(anonymous.body).code]).toEqual([401, "unauthorized:session"]);
  });

  it("created_by comes from the identity: user:<id> for a session, token:<id> for a token", async () => {
    const headers = await guestHeaders();
    const actor = await currentActor(headers);
    const key = uniqueKey("by");
    const bySession = await upsert(headers, { key, artifact: artifactOf() });
    expect(bySession).toMatchObject({ status: 201, body: { created_by: `user:${actor?.id}` } });

    const token = await tokenFor(actor?.id ?? "", ["read", "write", "groom"]);
    const [row] = rowsOf<{ id: string }>(
      await getDb().execute(sql`select id from api_tokens where user_id = ${actor?.id ?? ""}`),
    );
    const byToken = await upsert(bearer(token), { key, artifact: artifactOf({ next_step: "n" }) });
    expect(byToken.body).toMatchObject({ revision: 2, created_by: `token:${row?.id}` });
    // The cookie session has every scope: it may delete.
    expect((await deleteHandoff(headers, key)).status).toBe(204);
    expect((await getHandoff(headers, key)).status).toBe(404);
  });
});

describe("reading, listing and deleting", () => {
  it("returns exactly the documented record fields", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("shape");
    const res = await upsert(headers, {
      key,
      artifact: artifactOf(),
      project: "baton",
      repo: "acme/baton",
      kind: "review",
    });
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "key",
        "revision",
        "id",
        "state",
        "project",
        "repo",
        "kind",
        "created_by",
        "created_at",
        "updated_at",
        "thread_id",
        "session_number",
        "model",
        "profile",
        "redactions",
        "dropped",
        "artifact",
        "markdown",
        "revision_kind",
        "brief",
      ].sort(),
    );
    expect(res.body).toMatchObject({ revision_kind: "session", brief: null });
    const artifact = handoffArtifactSchema.parse(artifactOf());
    expect(res.body).toMatchObject({
      key,
      revision: 1,
      state: "prepared",
      project: "baton",
      repo: "acme/baton",
      kind: "review",
      artifact,
      markdown: renderHandoffMarkdown(artifact),
      id: contentId({
        schema_version: HANDOFF_SCHEMA_VERSION,
        handoff_key: key,
        revision: 1,
        artifact,
      }),
    });
    // A later revision that leaves the envelope out keeps it.
    const next = await upsert(headers, { key, artifact: artifactOf({ next_step: "x" }) });
    expect(next.body).toMatchObject({ project: "baton", repo: "acme/baton", kind: "review" });
  });

  it("pages newest first by keyset, filters by project, repo and state, and never repeats or skips", async () => {
    const { userId, headers } = await userWithToken();
    const keys: string[] = [];
    for (let i = 0; i < 7; i++) {
      const key = `page-${i}`;
      keys.push(key);
      await upsert(headers, {
        key,
        artifact: artifactOf(),
        project: i % 2 ? "odd" : "even",
        repo: "acme/r",
      });
    }
    // Give three records the same updated_at: the id breaks the tie.
    await getDb().execute(
      sql`update handoffs set updated_at = '2030-01-01T00:00:00.000001Z' where owner_id = ${userId} and handoff_key in ('page-1', 'page-2', 'page-3')`,
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await listPage(headers, { limit: "2", ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...res.body.handoffs.map((h) => String(h.key)));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect([...seen].sort()).toEqual([...keys].sort());
    expect(seen.slice(0, 3).sort()).toEqual(["page-1", "page-2", "page-3"]);
    expect(seen.slice(3)).toEqual(["page-6", "page-5", "page-4", "page-0"]);

    const odd = await listPage(headers, { project: "odd", limit: "100" });
    expect(odd.body.handoffs.map((h) => h.key).sort()).toEqual(["page-1", "page-3", "page-5"]);
    expect((await listPage(headers, { repo: "acme/other" })).body.handoffs).toEqual([]);
    await cancelHandoff(headers, "page-4");
    const open = await listPage(headers, { state: "prepared", limit: "100" });
    expect(open.body.handoffs.map((h) => h.key)).not.toContain("page-4");
    expect(open.body.handoffs).toHaveLength(6);
  });

  it("delete removes the record and its whole history; a second delete is 404", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("gone");
    const one = await upsert(headers, { key, artifact: artifactOf() });
    await upsert(headers, { key, artifact: artifactOf({ next_step: "2" }) });
    await acceptHandoff(headers, key, {
      id: (await getHandoff(headers, key)).body.id,
      receiver: "r",
    });
    expect((await deleteHandoff(headers, key)).status).toBe(204);
    expect((await getHandoff(headers, key)).status).toBe(404);
    expect((await getHandoff(headers, key, 1)).status).toBe(404);
    const left = rowsOf<{ n: number }>(
      await getDb().execute(
        sql`select count(*)::int as n from handoff_revisions where content_id = ${String(one.body.id)}`,
      ),
    );
    expect(left[0]?.n).toBe(0);
    expect((await deleteHandoff(headers, key)).status).toBe(404);
    // The key is free again and starts over at revision 1.
    expect((await upsert(headers, { key, artifact: artifactOf() })).body.revision).toBe(1);
  });

  it("reading a handoff after its thread is deleted still returns it, with no thread", async () => {
    const headers = await guestHeaders();
    const actor = await currentActor(headers);
    if (!actor) throw new Error("no guest");
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "remember the vault is in Lisbon");
    const { resetThreadManually } = await import("@/lib/runs/reset-requests");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    const live = await getHandoff(headers, threadId);
    expect(live.body).toMatchObject({ thread_id: threadId, kind: "session", revision: 1 });

    expect(await deleteThread({ userId: actor.id, threadId })).toBe(true);
    const after = await getHandoff(headers, threadId);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({
      key: threadId,
      thread_id: null,
      revision: 1,
      id: live.body.id,
    });
    expect((after.body.artifact as { must_preserve: string[] }).must_preserve).toContain(
      "the vault is in Lisbon",
    );
    expect((await listPage(headers)).body.handoffs.map((h) => h.key)).toContain(threadId);
  });

  it("refuses API writes to a live thread's own key, whose resets write it", async () => {
    const headers = await guestHeaders();
    const actor = await currentActor(headers);
    if (!actor) throw new Error("no guest");
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "remember the bridge is red");
    const { resetThreadManually } = await import("@/lib/runs/reset-requests");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    const before = await handoffTables();
    const res = await upsert(headers, { key: threadId, artifact: artifactOf() });
    expect([res.status, errorOf(res.body).code]).toEqual([409, "conflict:thread_handoff"]);
    expect(await handoffTables()).toEqual(before);
  });
});

describe("account linking", () => {
  it("moves a guest's handoffs to the account, leaving keys the account already uses", async () => {
    const guest = await userWithToken();
    const account = await userWithToken();
    await upsert(guest.headers, { key: "trip", artifact: artifactOf({ goal: "guest trip" }) });
    await upsert(guest.headers, { key: "notes", artifact: artifactOf({ goal: "guest notes" }) });
    await upsert(account.headers, { key: "notes", artifact: artifactOf({ goal: "own notes" }) });
    const moved = await transferHandoffs({ fromUserId: guest.userId, toUserId: account.userId });
    expect(moved).toBe(1);
    expect((await getHandoff(account.headers, "trip")).body).toMatchObject({
      artifact: { goal: "guest trip" },
    });
    expect((await getHandoff(account.headers, "notes")).body).toMatchObject({
      artifact: { goal: "own notes" },
    });
    expect((await getHandoff(guest.headers, "trip")).status).toBe(404);
  });
});

describe("continue from a handoff", () => {
  it("starts a thread whose session 1 continues from the handoff, records the acceptance and sends nothing", async () => {
    const headers = await guestHeaders();
    const actor = await currentActor(headers);
    if (!actor) throw new Error("no guest");
    const key = uniqueKey("resume");
    const stored = await upsert(headers, {
      key,
      artifact: artifactOf({
        goal: "Plan the Lisbon trip",
        confirmed_facts: ["the ferry leaves at nine"],
        must_preserve: ["budget is 900 euros"],
      }),
    });
    const messagesBefore = await countRows("messages");
    const runsBefore = await countRows("thread_resets");
    const threadId = randomUUID();
    const res = await continueHandoff(headers, key, { id: stored.body.id, threadId });
    expect(res).toMatchObject({ status: 201, body: { threadId } });
    // A retry (double click, dropped answer) finds the same thread.
    expect(await continueHandoff(headers, key, { id: stored.body.id, threadId })).toMatchObject({
      status: 200,
      body: { threadId },
    });

    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => [s.number, s.trigger])).toEqual([[1, "continuation"]]);
    const current = await getHandoffWithRevision({ ownerId: actor.id, key });
    expect(sessions[0]?.handoffRevisionId).toBe(current?.revision.id);
    expect(current?.handoff.state).toBe("accepted");
    const receipts = await getDb()
      .select()
      .from(handoffReceipts)
      .where(sql`${handoffReceipts.handoffId} = ${current?.handoff.id ?? ""}`);
    expect(receipts.map((r) => r.receiver)).toEqual([`session:${sessions[0]?.id}`]);
    expect(await countRows("messages")).toBe(messagesBefore);
    expect(await countRows("thread_resets")).toBe(runsBefore);
    expect(
      (await listPage(headers, { state: "prepared" })).body.handoffs.map((h) => h.key),
    ).not.toContain(key);

    // The first turn answers from the carried-over brief.
    const turn = await sendTurn(actor, threadId, "what do you know?");
    const reply = replyText(turn.parts);
    expect(reply).toContain("the ferry leaves at nine");
    expect(reply).toContain("budget is 900 euros");
    const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 10 });
    expect(messages).toHaveLength(2);
  });

  it("continuing from a revision that has since changed is 409 and starts nothing", async () => {
    const { headers } = await userWithToken();
    const key = uniqueKey("moved");
    const one = await upsert(headers, { key, artifact: artifactOf() });
    await upsert(headers, { key, artifact: artifactOf({ next_step: "newer" }) });
    const threadsBefore = await countRows("threads");
    const res = await continueHandoff(headers, key, { id: one.body.id });
    expect([res.status, errorOf(res.body).code]).toEqual([409, "conflict:stale_revision"]);
    expect(await countRows("threads")).toBe(threadsBefore);
    expect((await continueHandoff(headers, key, { model: "nope:model" })).status).toBe(400);
  });
});

describe("grooming", () => {
  it("deletes handoffs whose thread is gone or that are past the TTL, keeps recent and in-use ones, with reasons", async () => {
    const { userId, headers } = await userWithToken();
    const orphanThread = randomUUID();
    await ensureThread({ userId, threadId: orphanThread, model: "baton/local", title: "t" });
    const artifact = handoffArtifactSchema.parse(artifactOf());
    await getDb().transaction((tx) =>
      writeHandoff(tx, {
        ownerId: userId,
        key: orphanThread,
        revision: 1,
        artifact,
        markdown: renderHandoffMarkdown(artifact),
        contentIdFor: (revision) =>
          contentId({ schema_version: 1, handoff_key: orphanThread, revision, artifact }),
        createdBy: "session:test",
        kind: "session",
        threadId: orphanThread,
        redactions: [],
      }),
    );
    await deleteThread({ userId, threadId: orphanThread });

    await upsert(headers, { key: "old-idle", artifact: artifactOf() });
    await upsert(headers, { key: "old-in-use", artifact: artifactOf() });
    await upsert(headers, { key: "fresh", artifact: artifactOf() });
    // A thread continues from old-in-use: its session needs the brief, so it must stay.
    expect((await continueHandoff(headers, "old-in-use")).status).toBe(201);
    await getDb().execute(
      sql`update handoffs set updated_at = now() - interval '45 days' where owner_id = ${userId} and handoff_key in ('old-idle', 'old-in-use')`,
    );
    await getDb().execute(
      sql`update handoff_receipts set accepted_at = now() - interval '45 days' where handoff_id in (select id from handoffs where owner_id = ${userId})`,
    );

    const res = await groom(headers);
    expect(res.status).toBe(200);
    const body = res.body as { deleted: Body[]; kept: Body[] };
    expect(body.deleted).toEqual(
      expect.arrayContaining([
        { key: orphanThread, reason: "thread_deleted" },
        { key: "old-idle", reason: "expired" },
      ]),
    );
    expect(body.deleted).toHaveLength(2);
    expect(body.kept).toEqual(
      expect.arrayContaining([
        { key: "fresh", reason: "recent" },
        { key: "old-in-use", reason: "in_use" },
      ]),
    );
    expect(body.kept).toHaveLength(2);
    expect((await getHandoff(headers, "old-idle")).status).toBe(404);
    expect((await getHandoff(headers, orphanThread)).status).toBe(404);
    expect((await getHandoff(headers, "old-in-use")).status).toBe(200);

    // A TTL from the environment: with 60 days nothing idle for 45 days is expired.
    await upsert(headers, { key: "idle-45", artifact: artifactOf() });
    await getDb().execute(
      sql`update handoffs set updated_at = now() - interval '45 days' where owner_id = ${userId} and handoff_key = 'idle-45'`,
    );
    process.env.BATON_HANDOFF_TTL_DAYS = "60";
    try {
      const kept = await groom(headers);
      expect((kept.body as { kept: Body[] }).kept).toContainEqual({
        key: "idle-45",
        reason: "recent",
      });
    } finally {
      delete process.env.BATON_HANDOFF_TTL_DAYS;
    }
  });

  it("a recent acceptance keeps an old handoff", async () => {
    const { userId, headers } = await userWithToken();
    const stored = await upsert(headers, { key: "old-but-read", artifact: artifactOf() });
    await acceptHandoff(headers, "old-but-read", { id: stored.body.id, receiver: "agent:y" });
    await getDb().execute(
      sql`update handoffs set updated_at = now() - interval '90 days' where owner_id = ${userId}`,
    );
    const res = await groom(headers);
    expect(res.body).toEqual({ deleted: [], kept: [{ key: "old-but-read", reason: "recent" }] });
  });
});

describe("redaction", () => {
  it("stores every secret kind redacted with a report, and no column of any table holds a raw secret", async () => {
    const { headers } = await userWithToken();
    // Fake secrets assembled at run time (random, so no fixture can leak them by accident).
    const r = (n: number) => randomBytes(n).toString("hex");
    const apiKey = `sk-proj-${r(20)}9`;
    const bearerToken = `${r(16)}7Zq`;
    const password = `Pw-${r(8)}!x`;
    const keyBody = Array.from({ length: 4 }, () => randomBytes(48).toString("base64")).join("\n");
    const privateKey = `-----BEGIN RSA PRIVATE KEY-----\n${keyBody}\n-----END RSA PRIVATE KEY-----`;
    const dbPassword = `db${r(10)}Q`;
    const connection = `postgres://app:${dbPassword}@db.internal:5432/prod`;
    const repoToken = `rp${r(12)}`;

    const key = uniqueKey("secrets");
    const res = await upsert(headers, {
      key,
      repo: `https://ci:${repoToken}@git.example.com/acme/api.git`,
      artifact: artifactOf({
        state_summary: `Deploy uses OPENAI key ${apiKey} for now`,
        confirmed_facts: [`curl -H "Authorization: Bearer ${bearerToken}" works`],
        remaining_tasks: [{ id: "t1", task: `log in with password=${password} and rotate it` }],
        must_preserve: [privateKey],
        key_decisions: [`use DATABASE_URL=${connection}`],
      }),
    });
    expect(res.status).toBe(201);
    const redactions = res.body.redactions as { kind: string; field: string }[];
    expect(redactions).toEqual(
      expect.arrayContaining([
        { kind: "api_key", field: "state_summary" },
        { kind: "bearer_token", field: "confirmed_facts[0]" },
        { kind: "password", field: "remaining_tasks[0].task" },
        { kind: "private_key", field: "must_preserve[0]" },
        { kind: "connection_string", field: "key_decisions[0]" },
        { kind: "connection_string", field: "repo" },
      ]),
    );
    const stored = await getHandoff(headers, key);
    expect(stored.body.redactions).toEqual(redactions);
    const text = JSON.stringify(stored.body);
    expect(text).toContain("[REDACTED:api_key]");
    expect(text).toContain("[REDACTED:private_key]");

    const secrets = [
      apiKey,
      bearerToken,
      password,
      keyBody.split("\n")[0] ?? "",
      dbPassword,
      repoToken,
    ];
    const tables = rowsOf<{ table_name: string }>(
      await getDb().execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      ),
    ).map((t) => t.table_name);
    expect(tables).toEqual(
      expect.arrayContaining(["handoffs", "handoff_revisions", "handoff_receipts"]),
    );
    for (const table of tables) {
      const rows = rowsOf<{ row: string }>(
        await getDb().execute(sql.raw(`select t::text as row from "${table}" t`)),
      );
      for (const { row } of rows) {
        for (const secret of secrets) expect(row, `${table} holds a secret`).not.toContain(secret);
      }
    }
  });
});
