// The run journal end to end: events recorded through RunJournal (from two writers at once, as
// two server processes would), read back in order over GET /api/threads/{id}/runs/{runId}/events
// by the owner only, stored redacted and capped; and the run that answered a message found over
// GET /api/threads/{id}/runs?request=….
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as runEventsRoute } from "@/app/api/threads/[id]/runs/[runId]/events/route";
import { GET as runLookupRoute } from "@/app/api/threads/[id]/runs/route";
import { type DatabaseHandle, getDb, openDatabase, rowsOf } from "@/db/client";
import { appendRunEvent, findRunForRequest, listRunEvents } from "@/db/queries/run-events";
import { getCurrentSession } from "@/db/queries/sessions";
import { ensureThread } from "@/db/queries/threads";
import { runEvents, runs } from "@/db/schema";
import { RunJournal } from "@/lib/agents/journal";
import { PAYLOAD_LIMITS } from "@/lib/agents/journal-payload";
import { currentActor } from "@/lib/auth/server";
import { guestHeaders } from "../support/auth";
import { SECRET_CASES } from "../support/secret-corpus";

const BASE = "http://localhost:3000";

interface Owner {
  headers: Headers;
  userId: string;
}

async function owner(): Promise<Owner> {
  const headers = await guestHeaders();
  const actor = await currentActor(headers);
  if (!actor) throw new Error("no session");
  return { headers, userId: actor.id };
}

async function threadOf(userId: string): Promise<string> {
  const threadId = randomUUID();
  const made = await ensureThread({ userId, threadId, model: "baton/local", title: "t" });
  if (!made) throw new Error("thread not created");
  return threadId;
}

async function runIn(userId: string, threadId: string, requestMessageId: string | null = null) {
  const session = await getCurrentSession({ userId, threadId });
  if (!session) throw new Error("no session row");
  const [run] = await getDb()
    .insert(runs)
    .values({
      threadId,
      userId,
      maxSteps: 20,
      firstSessionId: session.id,
      lastSessionId: session.id,
      sessionIds: [session.id],
      requestMessageId,
    })
    .returning();
  if (!run) throw new Error("run not stored");
  return run.id;
}

async function getEvents(headers: Headers, threadId: string, runId: string) {
  const url = `${BASE}/api/threads/${threadId}/runs/${runId}/events`;
  const response = await runEventsRoute(new Request(url, { headers }), {
    params: Promise.resolve({ id: threadId, runId }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function lookUp(headers: Headers, threadId: string, query: string) {
  const url = `${BASE}/api/threads/${threadId}/runs${query}`;
  const response = await runLookupRoute(new Request(url, { headers }), {
    params: Promise.resolve({ id: threadId }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function storedPayloads(runId: string): Promise<Record<string, unknown>[]> {
  const rows = await getDb()
    .select({ payload: runEvents.payload })
    .from(runEvents)
    .where(eq(runEvents.runId, runId))
    .orderBy(runEvents.seq);
  return rows.map((r) => r.payload);
}

/**
 * A second client on the same database: with Postgres its own connection pool, as another
 * server process has; PGlite is one process's embedded database, so it is the same client.
 */
let second: DatabaseHandle | null = null;
beforeAll(async () => {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  const [row] = rowsOf<{ name: string }>(
    await getDb().execute(sql`select current_database() as name`),
  );
  const own = new URL(url);
  own.pathname = `/${row?.name}`;
  second = openDatabase({ url: own.toString() });
});
afterAll(async () => {
  await second?.close();
});

describe("run journal", () => {
  it("gives events from two concurrent writers distinct seqs, listed in order", async () => {
    const { userId } = await owner();
    const threadId = await threadOf(userId);
    const runId = await runIn(userId, threadId);
    const scope = { userId, threadId, runId };
    const a = new RunJournal(scope);
    const b = new RunJournal(scope, second?.db);
    const who = (agent: string) => ({ agent, invocationId: `inv-${agent}` });
    const written = await Promise.all(
      Array.from({ length: 20 }, (_, i) => [
        a.record("tool_call", { writer: "a", i }, who("writer-a")),
        b.record("tool_call", { writer: "b", i }, who("writer-b")),
      ]).flat(),
    );
    expect(written.every((row) => row !== null)).toBe(true);
    const listed = await listRunEvents(scope);
    const seqs = listed?.events.map((e) => e.seq) ?? [];
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // Each writer's own events keep the order it recorded them in.
    for (const writer of ["a", "b"]) {
      const mine = (listed?.events ?? []).filter((e) => e.payload.writer === writer);
      expect(mine.map((e) => e.payload.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(new Set(mine.map((e) => e.agent))).toEqual(new Set([`writer-${writer}`]));
    }
  });

  it("holds writes until released (or its limit), in the order they were recorded", async () => {
    const { userId } = await owner();
    const threadId = await threadOf(userId);
    const runId = await runIn(userId, threadId);
    const scope = { userId, threadId, runId };
    const journal = new RunJournal(scope);
    const who = { agent: "default", invocationId: "inv-1" };
    const before = journal.record("agent_invocation_created", { n: 0 }, who);
    await before;
    journal.hold(60_000);
    const held = [1, 2, 3].map((n) => journal.record("tool_call", { n }, who));
    // A statement round trip later, nothing held is stored yet.
    await listRunEvents(scope);
    expect((await listRunEvents(scope))?.events.map((e) => e.payload.n)).toEqual([0]);
    journal.release();
    const rows = await Promise.all(held);
    expect(rows.map((row) => row?.seq)).toEqual([2, 3, 4]);
    expect(rows.map((row) => row?.payload)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect((await listRunEvents(scope))?.events.map((e) => e.payload.n)).toEqual([0, 1, 2, 3]);

    // A hold that nobody releases ends at its limit; `settled` releases one at once.
    journal.hold(50);
    const late = journal.record("tool_call", { n: 4 }, who);
    expect((await late)?.seq).toBe(5);
    journal.hold(60_000);
    journal.record("run_completed", { n: 5 });
    await journal.settled();
    expect((await listRunEvents(scope))?.events.map((e) => e.payload.n)).toEqual([
      0, 1, 2, 3, 4, 5,
    ]);
  });

  it("answers the owner with the run and its events in order", async () => {
    const me = await owner();
    const threadId = await threadOf(me.userId);
    const runId = await runIn(me.userId, threadId);
    const journal = new RunJournal({ userId: me.userId, threadId, runId });
    const who = { agent: "default", invocationId: "inv-1" };
    journal.record("agent_invocation_started", { model: "baton/local" }, who);
    journal.record("tool_call", { toolName: "read_file", args: { path: "a.md" } }, who);
    journal.record("tool_result", { toolName: "read_file", ok: true }, who);
    journal.record("agent_invocation_completed", { inputTokens: 120, outputTokens: 30 }, who);
    journal.record("run_completed", {});
    await journal.settled();

    const { status, body } = await getEvents(me.headers, threadId, runId);
    expect(status).toBe(200);
    expect(body.run).toMatchObject({ id: runId, status: "running", endedAt: null, stepCount: 0 });
    const events = body.events as { seq: number; type: string; agent: string | null }[];
    expect(events.map((e) => [e.seq, e.type, e.agent])).toEqual([
      [1, "agent_invocation_started", "default"],
      [2, "tool_call", "default"],
      [3, "tool_result", "default"],
      [4, "agent_invocation_completed", "default"],
      [5, "run_completed", null],
    ]);
    expect(events[3]).toMatchObject({
      invocationId: "inv-1",
      payload: { inputTokens: 120, outputTokens: 30 },
    });
    expect(typeof (events[0] as { at?: unknown }).at).toBe("string");
  });

  it("answers 404 for another user's run, a run of another thread and a malformed id", async () => {
    const me = await owner();
    const other = await owner();
    const myThread = await threadOf(me.userId);
    const myOtherThread = await threadOf(me.userId);
    const myRun = await runIn(me.userId, myThread);
    await new RunJournal({ userId: me.userId, threadId: myThread, runId: myRun }).record(
      "run_completed",
      { outcome: "done" },
    );

    const stranger = await getEvents(other.headers, myThread, myRun);
    expect(stranger).toEqual({
      status: 404,
      body: { error: { code: "not_found:run", message: "Run not found." } },
    });
    expect((await getEvents(me.headers, myOtherThread, myRun)).status).toBe(404);
    expect((await getEvents(me.headers, myThread, "not-a-uuid")).status).toBe(404);
    expect((await getEvents(me.headers, "not-a-uuid", myRun)).status).toBe(404);
    expect((await getEvents(me.headers, myThread, randomUUID())).status).toBe(404);
    expect((await getEvents(me.headers, myThread, myRun)).status).toBe(200);
  });

  it("stores nothing for a run that is not the writer's, or not in that thread", async () => {
    const me = await owner();
    const other = await owner();
    const threadId = await threadOf(me.userId);
    const runId = await runIn(me.userId, threadId);
    const foreign = new RunJournal({ userId: other.userId, threadId, runId });
    expect(await foreign.record("tool_call", { forged: true })).toBeNull();
    const elsewhere = await threadOf(me.userId);
    expect(
      await appendRunEvent(getDb(), {
        userId: me.userId,
        threadId: elsewhere,
        runId,
        type: "tool_call",
        agent: null,
        invocationId: null,
        payload: {},
      }),
    ).toBeNull();
    expect(await storedPayloads(runId)).toEqual([]);
  });

  it("stores a payload that carries a secret redacted", async () => {
    const me = await owner();
    const threadId = await threadOf(me.userId);
    const runId = await runIn(me.userId, threadId);
    const journal = new RunJournal({ userId: me.userId, threadId, runId });
    const cases = SECRET_CASES.slice(0, 6);
    await journal.record("tool_result", {
      toolName: "read_file",
      result: { content: cases.map((c) => c.text).join("\n") },
      args: { env: { DB_PASSWORD: "hunter2Xy!" } },
    });

    const [stored] = await storedPayloads(runId);
    const json = JSON.stringify(stored);
    for (const c of cases) expect(json, c.name).not.toContain(c.secret);
    expect(json).not.toContain("hunter2Xy!");
    expect(json).toContain("[REDACTED:");
    const { body } = await getEvents(me.headers, threadId, runId);
    expect(JSON.stringify(body)).not.toContain("hunter2Xy!");
    expect((body.events as { payload: unknown }[])[0]?.payload).toEqual(stored);
  });

  it("stores an oversize payload capped to 8 KiB, the largest field dropped", async () => {
    const me = await owner();
    const threadId = await threadOf(me.userId);
    const runId = await runIn(me.userId, threadId);
    const journal = new RunJournal({ userId: me.userId, threadId, runId });
    await journal.record(
      "tool_result",
      {
        toolName: "list_files",
        inputTokens: 4_000,
        files: Array.from({ length: 500 }, (_, i) => `notes/${i}.md`),
        output: "z".repeat(100_000),
        listing: Array.from({ length: 200 }, () => "q".repeat(3_000)),
      },
      { agent: "default", invocationId: "inv-1" },
    );

    const [stored] = await storedPayloads(runId);
    expect(new TextEncoder().encode(JSON.stringify(stored)).length).toBeLessThanOrEqual(
      PAYLOAD_LIMITS.jsonBytes,
    );
    expect(stored).toMatchObject({
      toolName: "list_files",
      inputTokens: 4_000,
      truncated: true,
      droppedFields: ["listing"],
      output: `${"z".repeat(2_000)}… [truncated 98000 chars]`,
    });
    expect(stored?.files).toHaveLength(51);
    expect((stored?.files as string[] | undefined)?.at(-1)).toBe("… [450 more items]");
  });

  it("finds the newest run that answered a message, for the owner only", async () => {
    const me = await owner();
    const other = await owner();
    const threadId = await threadOf(me.userId);
    const request = randomUUID();
    const first = await runIn(me.userId, threadId, request);
    // A regenerated reply answers the same message again, later.
    await getDb()
      .update(runs)
      .set({ startedAt: new Date(Date.now() - 60_000) })
      .where(and(eq(runs.id, first), eq(runs.threadId, threadId)));
    const newest = await runIn(me.userId, threadId, request);

    const found = await lookUp(me.headers, threadId, `?request=${request}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({
      run: {
        id: newest,
        status: "running",
        startedAt: expect.any(String),
        endedAt: null,
        stepCount: 0,
      },
    });
    expect(
      (await findRunForRequest({ userId: me.userId, threadId, requestMessageId: request }))?.id,
    ).toBe(newest);
    expect(await lookUp(me.headers, threadId, `?request=${randomUUID()}`)).toEqual({
      status: 200,
      body: { run: null },
    });
    expect((await lookUp(other.headers, threadId, `?request=${request}`)).status).toBe(404);
    expect((await lookUp(me.headers, "not-a-uuid", `?request=${request}`)).status).toBe(404);
    const missing = await lookUp(me.headers, threadId, "");
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: { fields: { request: expect.any(Array) } } });
  });
});
