// Database faults: retried writes that meet their own first attempt, the 503 a database that
// stays unreachable answers, and — on Postgres, where connections exist to be lost — statements,
// transactions and a burst of requests and chats surviving pg_terminate_backend.
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { DrizzleQueryError } from "drizzle-orm/errors";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, openDatabase, rowsOf } from "@/db/client";
import { appendMessage } from "@/db/queries/messages";
import { createThreadWithMessage } from "@/db/queries/threads";
import { users } from "@/db/schema";
import { route } from "@/lib/http/route";
import { parseSse, replyText } from "../support/chat";
import { APP_ORIGIN, callRoute, routeAt, sameOrigin, seedVictim } from "../support/route-call";
import { createTestUser } from "../support/users";

const text = (t: string) => [{ type: "text", text: t }];

/** Everything written to the console while `run` runs, as one string per call. */
async function consoleDuring<T>(run: () => Promise<T>): Promise<{ result: T; logged: string[] }> {
  const logged: string[] = [];
  const capture = (...args: unknown[]) => {
    process.stderr.write(
      `LOG ${String(args[0]).slice(0, 300)} ${String(args[1] ?? "").slice(0, 300)}\n`,
    );
    logged.push(
      args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : String(a))).join(" "),
    );
  };
  const spies = (["log", "info", "warn", "error"] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation(capture),
  );
  try {
    return { result: await run(), logged };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

describe("a retried insert that meets its own earlier write", () => {
  async function threadWithFirstMessage() {
    const userId = await createTestUser();
    const threadId = randomUUID();
    const first = {
      id: randomUUID(),
      role: "user" as const,
      parts: text("hi"),
      status: "complete" as const,
    };
    const made = await createThreadWithMessage({
      userId,
      threadId,
      model: "baton/local",
      title: "t",
      message: first,
    });
    if (!made) throw new Error("thread not created");
    return { userId, threadId, first, made };
  }

  it("appendMessage answers the stored row for the same message, and stores nothing more", async () => {
    const { userId, threadId, made } = await threadWithFirstMessage();
    const sessionId = made.session.id;
    const message = {
      id: randomUUID(),
      role: "user" as const,
      parts: text("again"),
      status: "complete" as const,
    };
    const stored = await appendMessage({ userId, threadId, sessionId, message });
    // Key order differs, as it may between what was sent and what jsonb gives back.
    const retried = await appendMessage({
      userId,
      threadId,
      sessionId,
      message: { ...message, parts: [{ text: "again", type: "text" }] },
    });
    expect(retried).toEqual(stored);
    // The retry used no seq: the next message directly follows.
    const next = await appendMessage({
      userId,
      threadId,
      sessionId,
      message: { id: randomUUID(), role: "assistant", parts: text("ok"), status: "complete" },
    });
    expect([stored.seq, next.seq]).toEqual([2, 3]);
  });

  it("appendMessage keeps a genuine conflict a conflict: other text, another role, another user", async () => {
    const { userId, threadId, first, made } = await threadWithFirstMessage();
    const sessionId = made.session.id;
    await expect(
      appendMessage({ userId, threadId, sessionId, message: { ...first, parts: text("changed") } }),
    ).rejects.toMatchObject({ code: "conflict:message" });
    await expect(
      appendMessage({ userId, threadId, sessionId, message: { ...first, role: "assistant" } }),
    ).rejects.toMatchObject({ code: "conflict:message" });
    const other = await createTestUser();
    await expect(
      appendMessage({ userId: other, threadId, sessionId, message: first }),
    ).rejects.toMatchObject({ code: "not_found:thread" });
  });

  it("createThreadWithMessage answers the stored thread for the same first message, null for any other", async () => {
    const { userId, threadId, first, made } = await threadWithFirstMessage();
    const args = { userId, threadId, model: "baton/local", title: "t" };
    expect(await createThreadWithMessage({ ...args, message: first })).toEqual(made);
    expect(
      await createThreadWithMessage({ ...args, message: { ...first, parts: text("other") } }),
    ).toBeNull();
    expect(
      await createThreadWithMessage({ ...args, message: { ...first, id: randomUUID() } }),
    ).toBeNull();
    const other = await createTestUser();
    expect(await createThreadWithMessage({ ...args, userId: other, message: first })).toBeNull();
  });
});

describe("a database that stays unreachable", () => {
  it("answers 503 unavailable:database with Retry-After, and logs nothing of the query", async () => {
    const lost = Object.assign(new Error("terminating connection due to administrator command"), {
      code: "57P01",
    });
    const failing = route({ auth: "none" }, async () => {
      throw new DrizzleQueryError(
        'insert into "messages" values ($1)',
        ["a private message"],
        lost,
      );
    });
    const { result: response, logged } = await consoleDuring(() =>
      failing(new Request(`${APP_ORIGIN}/api/anything`)),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await response.json()).toMatchObject({ error: { code: "unavailable:database" } });
    expect(logged.join("\n")).not.toMatch(/private message|insert/);
  });
});

// PGlite runs inside the process: it has no connection that could be terminated.
describe.skipIf(!process.env.DATABASE_URL)("terminated connections (Postgres only)", () => {
  let admin: postgres.Sql;
  /** This file's own database (the app's), which the admin connection also opens. */
  let fileUrl: URL;

  beforeAll(async () => {
    // The admin connection goes to this file's own database, so current_database() is the app's.
    const [row] = rowsOf<{ name: string }>(
      await getDb().execute(sql`select current_database() as name`),
    );
    const url = new URL(process.env.DATABASE_URL ?? "");
    url.pathname = `/${row?.name}`;
    fileUrl = url;
    admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
  });

  afterAll(async () => {
    await admin?.end({ timeout: 5 });
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("runs a statement whose connection was terminated once more, on a fresh connection", async () => {
    const probe = `probe_${randomUUID().replaceAll("-", "")}`;
    await getDb().execute(sql.raw(`create sequence ${probe}`));
    // Sequences ignore rollbacks: the first attempt counts although its connection dies.
    const { result } = await consoleDuring(async () =>
      rowsOf<{ ok: boolean }>(
        await getDb().execute(
          sql.raw(
            `select case when nextval('${probe}') = 1 then pg_terminate_backend(pg_backend_pid()) else true end as ok`,
          ),
        ),
      ),
    );
    expect(result).toEqual([{ ok: true }]);
    const [count] = rowsOf<{ n: string }>(
      await getDb().execute(sql.raw(`select last_value as n from ${probe}`)),
    );
    expect(Number(count?.n)).toBe(2);
  });

  it("re-runs a transaction whose connection was terminated as a whole, committing it once", async () => {
    const id = randomUUID();
    let runs = 0;
    const { result } = await consoleDuring(() =>
      getDb().transaction(async (tx) => {
        runs++;
        await tx
          .insert(users)
          .values({ id, name: "retried", email: `${id}@example.test`, isAnonymous: true });
        if (runs === 1) await tx.execute(sql`select pg_terminate_backend(pg_backend_pid())`);
        return runs;
      }),
    );
    expect(result).toBe(2);
    expect(await getDb().select().from(users).where(eq(users.id, id))).toHaveLength(1);
  });

  it("fails a new connection's first statement, and nothing else, when the driver's own query is cancelled", async () => {
    // A new connection's first query is the driver's own (the array types, read from pg_type).
    // With pg_type locked by another transaction that query waits, so the new connection's
    // statement_timeout cancels it every time, however fast the server. Were its error dropped
    // by the driver, it would also escape as an unhandled rejection, which ends a Node process.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = admin.begin(async (tx) => {
      await tx`lock table pg_catalog.pg_type in access exclusive mode`;
      locked();
      await released;
    });
    // The database pg_type is locked in: each database has its own catalog.
    const url = new URL(fileUrl);
    url.searchParams.set("statement_timeout", "50");
    const strict = openDatabase({ url: url.toString() });
    try {
      // A lock that could not be taken fails here rather than leaving the test waiting.
      await Promise.race([isLocked, holding]);
      // postgres.js fails the statement the connection was opened for with that error too: the
      // caller gets it, where it can be handled (a lost connection's code is retried).
      await expect(strict.db.execute(sql`select 1 as one`)).rejects.toMatchObject({
        cause: { code: "57014" },
      });
      // Unhandled rejections are reported on a later turn of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
    } finally {
      release();
      await holding;
      process.off("unhandledRejection", onUnhandled);
      await strict.close();
    }
  });

  it("gives up after the one retry: the route answers 503 and logs only the code", async () => {
    const doomed = route({ auth: "none" }, async () => {
      await getDb().execute(
        sql`select pg_terminate_backend(pg_backend_pid()), ${"a private value"}::text`,
      );
      return Response.json({ ok: true });
    });
    const { result: response, logged } = await consoleDuring(() =>
      doomed(new Request(`${APP_ORIGIN}/api/anything`)),
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: "unavailable:database" } });
    expect(logged).toHaveLength(2);
    for (const line of logged)
      expect(line).toMatch(
        /^\[baton\] database connection lost (again )?\([0-9A-Z_]+\) during a statement/,
      );
  });

  it("answers every request and chat of a burst while the app's connections are terminated", async () => {
    vi.stubEnv("BATON_LOCAL_DELAY_MS", "3");
    const { victim, cookie } = await seedVictim();
    const session = sameOrigin(cookie);
    const bearer = new Headers({
      authorization: `Bearer ${victim.token}`,
      "content-type": "application/json",
    });
    const threadUrl = (id: string) => `${APP_ORIGIN}/api/threads/${id}`;

    const chat = (threadId: string, words: string) => {
      const messageId = randomUUID();
      const response = callRoute(routeAt("/api/chat"), "POST", `${APP_ORIGIN}/api/chat`, {
        headers: session,
        params: {},
        body: JSON.stringify({
          trigger: "submit-message",
          id: threadId,
          message: { id: messageId, role: "user", parts: text(words) },
        }),
      });
      return { messageId, words, threadId, response };
    };
    // Two chats go to threads that exist (a message appended), three start new threads.
    const existing = [randomUUID(), randomUUID()];
    for (const threadId of existing) {
      const seeded = chat(threadId, "a thread to come back to");
      expect((await seeded.response).status).toBe(200);
      await (await seeded.response).text();
    }
    await waitAnswered(existing, session);

    type Call = { label: string; expected: number; response: Promise<Response> };
    const call = (
      label: string,
      expected: number,
      pattern: string,
      method: "GET" | "POST" | "PATCH",
      url: string,
      init: { headers: Headers; params?: Record<string, string>; body?: unknown },
    ): Call => ({
      label,
      expected,
      response: callRoute(routeAt(pattern), method, url, {
        headers: init.headers,
        params: init.params ?? {},
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      }),
    });
    const kinds = [
      (i: number) =>
        call(`list threads ${i}`, 200, "/api/threads", "GET", `${APP_ORIGIN}/api/threads`, {
          headers: session,
        }),
      (i: number) =>
        call(`read thread ${i}`, 200, "/api/threads/[id]", "GET", threadUrl(victim.threadId), {
          headers: session,
          params: { id: victim.threadId },
        }),
      (i: number) =>
        call(`rename thread ${i}`, 200, "/api/threads/[id]", "PATCH", threadUrl(victim.threadId), {
          headers: session,
          params: { id: victim.threadId },
          body: { title: `renamed ${i}` },
        }),
      (i: number) =>
        call(`list handoffs ${i}`, 200, "/api/handoffs", "GET", `${APP_ORIGIN}/api/handoffs`, {
          headers: bearer,
        }),
      (i: number) =>
        call(`write handoff ${i}`, 201, "/api/handoffs", "POST", `${APP_ORIGIN}/api/handoffs`, {
          headers: bearer,
          body: {
            key: `burst-${i}`,
            artifact: { goal: `Burst ${i}`, state_summary: "Written during the burst" },
          },
        }),
      (i: number) =>
        call(
          `read handoff ${i}`,
          200,
          "/api/handoffs/[key]",
          "GET",
          `${APP_ORIGIN}/api/handoffs/${victim.handoffKey}`,
          { headers: bearer, params: { key: victim.handoffKey } },
        ),
      (i: number) =>
        call(`list tokens ${i}`, 200, "/api/tokens", "GET", `${APP_ORIGIN}/api/tokens`, {
          headers: session,
        }),
      (i: number) =>
        call(`create token ${i}`, 201, "/api/tokens", "POST", `${APP_ORIGIN}/api/tokens`, {
          headers: session,
          body: { name: `burst ${i}`, scopes: ["read"] },
        }),
    ];

    const { result, logged } = await consoleDuring(async () => {
      const calls = Array.from(
        { length: 40 },
        (_, i) => kinds[i % kinds.length] as (i: number) => Call,
      );
      const threads = [...existing, randomUUID(), randomUUID(), randomUUID()];
      const outcomes: { label: string; expected: number; status: number; body: string }[] = [];
      const chats: ReturnType<typeof chat>[] = [];
      const killed: number[] = [];
      // Three waves, each terminated while under way. A wave starts when the one before has
      // settled, so no retry of one termination is still running when the next comes: the
      // promise is one retry per fault, not surviving two in a row.
      for (const [from, to, chatFrom, chatTo] of [
        [0, 14, 0, 2],
        [14, 27, 2, 4],
        [27, 40, 4, 5],
      ] as const) {
        let settled = 0;
        const wave = [
          ...calls.slice(from, to).map(async (make, i) => {
            const c = make(from + i);
            const response = await c.response;
            const body = await response.text();
            settled++;
            return { label: c.label, expected: c.expected, status: response.status, body };
          }),
          ...threads.slice(chatFrom, chatTo).map(async (threadId, i) => {
            const c = chat(threadId, `burst chat number ${chatFrom + i} about zebra crossings`);
            chats.push(c);
            const response = await c.response;
            const body = await response.text();
            settled++;
            return { label: `chat ${threadId}`, expected: 200, status: response.status, body };
          }),
        ];
        await vi.waitUntil(() => settled >= 2, { timeout: 30_000, interval: 2 });
        const rows =
          await admin`select pg_terminate_backend(pid) as killed from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
        killed.push(rows.filter((r) => r.killed).length);
        outcomes.push(...(await Promise.all(wave)));
      }
      return { outcomes, killed, chats };
    });

    // The terminations really hit the app's connections, so the burst could have failed.
    expect(result.killed.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(result.outcomes).toHaveLength(45);
    const wrong = result.outcomes.filter((o) => o.status !== o.expected);
    expect(wrong.map((o) => `${o.label}: ${o.status} ${o.body.slice(0, 200)}`)).toEqual([]);
    for (const c of result.chats) {
      const reply = replyText(
        parseSse(result.outcomes.find((o) => o.label === `chat ${c.threadId}`)?.body ?? ""),
      );
      expect(reply.length).toBeGreaterThan(0);
    }
    // Every user message is stored, and answered directly under it.
    await waitAnswered(
      result.chats.map((c) => c.threadId),
      session,
      result.chats.map((c) => c.messageId),
    );
    // Nothing of what was written reaches the console: the retries log codes only.
    expect(logged.join("\n")).not.toMatch(/zebra|Written during the burst|renamed/);
  });
});

type ViewMessage = {
  id: string;
  role: string;
  parts: { type: string; text?: string }[];
  metadata?: { status?: string };
};

/** Waits until each thread's last user message (or the given one) has a complete answer right after it. */
async function waitAnswered(threadIds: string[], headers: Headers, messageIds?: string[]) {
  await expect
    .poll(
      async () =>
        Promise.all(
          threadIds.map(async (threadId, i) => {
            const response = await callRoute(
              routeAt("/api/threads/[id]"),
              "GET",
              `${APP_ORIGIN}/api/threads/${threadId}`,
              {
                headers,
                params: { id: threadId },
              },
            );
            if (response.status !== 200) return `${threadId}: ${response.status}`;
            const { messages } = (await response.json()) as { messages: ViewMessage[] };
            const wanted = messageIds?.[i];
            const at = wanted
              ? messages.findIndex((m) => m.id === wanted)
              : messages.findLastIndex((m) => m.role === "user");
            if (at < 0) return `${threadId}: message not stored`;
            const answer = messages[at + 1];
            const answered =
              answer?.role === "assistant" &&
              answer.metadata?.status === "complete" &&
              answer.parts.some((p) => p.type === "text" && (p.text ?? "").length > 0);
            return answered
              ? "answered"
              : `${threadId}: ${answer?.role ?? "no"} ${answer?.metadata?.status ?? "answer"}`;
          }),
        ),
      { timeout: 30_000, interval: 50 },
    )
    .toEqual(threadIds.map(() => "answered"));
}
