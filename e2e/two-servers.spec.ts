// Two production servers on one Postgres database and one Redis behave as one app: a session
// signed in on A works on B, a reply streaming on A is followed from B, a reset running on A
// queues a message sent to B and is cancelled from B, a stop sent to B ends A's reply, and B
// refuses to show another user's live stream. Over HTTP, as a load balancer would spread one
// user's requests.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { expect, test } from "@playwright/test";
import {
  ChatClient,
  type LiveStream,
  readStream,
  type StoredMessage,
  type StreamPart,
  textOf,
} from "./support/chat-client";
import {
  freshStore,
  type ServerProcess,
  type ServerStore,
  spawnServer,
  startServer,
} from "./support/server-process";

const REDIS_URL = process.env.E2E_REDIS_URL || "redis://127.0.0.1:6379";
const SECRET = "two-servers-e2e-secret-0123456789abcdef";
// Slow enough that a reply can be joined and stopped mid-way, and a reset can be caught running.
const WORD_DELAY_MS = "120";
const HANDOFF_DELAY_MS = "4000";
const PROMPT =
  "Tell me about the careful engineers who test every stop button and every reload in the chat apps they build";

// Multi-server mode without a shared secret: each server would sign sessions with a secret of
// its own, so the server refuses to start. Cheap, and needs no Postgres: runs on every pass.
test("@own-server a server with REDIS_URL and no BETTER_AUTH_SECRET refuses to start", async () => {
  const store = await freshStore({ engine: "pglite" });
  try {
    const server = await spawnServer({
      env: { ...store.env, REDIS_URL, BETTER_AUTH_SECRET: "" },
    });
    const exit = await server.waitForExit(60_000);
    expect(exit.code).toBe(1);
    expect(server.output()).toMatch(/BETTER_AUTH_SECRET: required when REDIS_URL is set/);
  } finally {
    await store.dispose();
  }
});

/** The concatenated text deltas of a stream. */
function streamedText(stream: LiveStream): string {
  return stream.parts
    .map(({ part }) => (part.type === "text-delta" ? (part.delta ?? "") : ""))
    .join("");
}

const isText = (part: StreamPart) => part.type === "text-delta";

function cookieOf(client: ChatClient, base: string): string {
  return client
    .cookiesFor(base)
    .map((c) => `${c.name}=${c.value}`)
    .join("; ");
}

/** GET /api/chat/{id}/stream on `base` as `client`, read part by part. */
async function resume(client: ChatClient, base: string, threadId: string): Promise<LiveStream> {
  const res = await fetch(`${base}/api/chat/${threadId}/stream`, {
    headers: { cookie: cookieOf(client, base) },
  });
  return readStream(res);
}

/** The thread once nothing in it streams, is answered or waits (a stopped reply stays partial). */
async function settled(client: ChatClient, threadId: string): Promise<StoredMessage[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const view = (await client.thread(threadId)) as Awaited<ReturnType<ChatClient["thread"]>> & {
      live?: unknown[];
      reset?: unknown;
    };
    const busy =
      (view.live?.length ?? 0) > 0 ||
      view.reset ||
      view.answering.length > 0 ||
      view.messages.some((m) => m.metadata?.status === "queued");
    if (!busy) return view.messages;
    if (Date.now() > deadline) throw new Error(`thread still busy: ${JSON.stringify(view)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function postJson(client: ChatClient, base: string, path: string, body: unknown) {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { cookie: cookieOf(client, base), origin: base, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

test.describe("@own-server two servers, one Postgres, one Redis", () => {
  test.skip(
    !process.env.DATABASE_URL,
    "needs a shared Postgres (DATABASE_URL): runs in CI's Postgres pass, with Redis on 127.0.0.1",
  );
  test.describe.configure({ mode: "serial" });

  let store: ServerStore | undefined;
  let dataDirB: string | undefined;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  const serverA = () => a as ServerProcess;
  const serverB = () => b as ServerProcess;
  /** The full reply to PROMPT, from the first test, which later ones compare with. */
  let fullReply = "";

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    store = await freshStore();
    // Each server has a data folder of its own, as on two machines; only Postgres and Redis
    // are shared.
    dataDirB = `${store.dataDir}-b`;
    mkdirSync(dataDirB, { recursive: true });
    const shared = {
      DATABASE_URL: store.databaseUrl ?? "",
      REDIS_URL,
      BETTER_AUTH_SECRET: SECRET,
      BATON_LOCAL_DELAY_MS: WORD_DELAY_MS,
      BATON_LOCAL_HANDOFF_DELAY_MS: HANDOFF_DELAY_MS,
      BATON_LOG_LEVEL: "warn",
    };
    a = await startServer({ env: { ...shared, BATON_DATA_DIR: store.dataDir } });
    b = await startServer({ env: { ...shared, BATON_DATA_DIR: dataDirB } });
  });

  test.afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await store?.dispose();
    if (dataDirB) rmSync(dataDirB, { recursive: true, force: true });
  });

  test("a guest's and an account's sessions signed in on A work on B", async () => {
    const guest = await ChatClient.guest(serverA().url);
    const threadId = randomUUID();
    const first = await guest.send(threadId, "remember the tea is green");
    expect(first.status).toBe(200);
    await first.finished;
    const onB = await settled(guest.on(serverB().url), threadId);
    expect(onB.map((m) => m.role)).toEqual(["user", "assistant"]);

    const base = serverA().url;
    const email = `two-servers-${randomBytes(4).toString("hex")}@example.com`;
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { origin: base, "content-type": "application/json" },
      body: JSON.stringify({ email, password: "correct-horse-battery", name: "Two Servers" }),
    });
    expect(signUp.status).toBe(200);
    const cookie = signUp.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const session = await fetch(`${serverB().url}/api/auth/get-session`, { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user?: { email?: string } } | null)?.user?.email).toBe(
      email,
    );
  });

  test("a reply started on A and resumed on B mid-reply ends with the same text", async () => {
    const client = await ChatClient.guest(serverA().url);
    const threadId = randomUUID();
    const onA = await client.send(threadId, PROMPT);
    expect(onA.status).toBe(200);
    expect(await onA.until(isText)).not.toBeNull();

    const onB = await resume(client, serverB().url, threadId);
    expect(onB.status).toBe(200);
    // B answered while A still streamed: the reply was joined mid-way.
    expect(onA.parts.some(({ part }) => part.type === "finish")).toBe(false);
    await Promise.all([onA.finished, onB.finished]);
    expect(onB.parts.some(({ part }) => part.type === "finish")).toBe(true);
    fullReply = streamedText(onA);
    expect(fullReply.split(/\s+/).length).toBeGreaterThan(10);
    expect(streamedText(onB)).toBe(fullReply);

    const answer = (await settled(client.on(serverB().url), threadId)).at(-1);
    expect(answer?.metadata?.status).toBe("complete");
    expect(textOf(answer)).toBe(fullReply);
    // Nothing left to follow once the reply has ended.
    expect((await resume(client, serverB().url, threadId)).status).toBe(204);
  });

  test("a reset started on A queues a message sent to B, answered after the commit", async () => {
    const client = await ChatClient.guest(serverA().url);
    const threadId = randomUUID();
    await (await client.send(threadId, "remember the boat is blue")).finished;

    // A manual reset on A: the slow handoff keeps it running for a few seconds.
    const reset = postJson(client, serverA().url, `/api/threads/${threadId}/reset`, {
      fromSession: 1,
    });
    const b_ = client.on(serverB().url);
    await expect
      .poll(async () => ((await b_.thread(threadId)) as { reset?: unknown }).reset, {
        timeout: 10_000,
      })
      .toBeTruthy();

    const questionId = randomUUID();
    const queued = await b_.send(threadId, "what do you know?", questionId);
    expect(queued.status).toBe(200);
    const queuedPart = await queued.until((p) => p.type === "data-queued");
    expect(queuedPart?.data?.messageId).toBe(questionId);

    const committed = await reset;
    expect(committed.status).toBe(201);
    const { session } = (await committed.json()) as { session: { id: string; number: number } };
    expect(session.number).toBe(2);
    await queued.finished;
    // The answer came after the queued mark, in the session the reset made.
    const order = queued.parts.map(({ part }) => part.type);
    expect(order.indexOf("data-queued")).toBeLessThan(order.indexOf("text-delta"));
    const sessions = queued.parts
      .filter(({ part }) => part.type === "data-session")
      .map(({ part }) => part.data?.id);
    expect(sessions.at(-1)).toBe(session.id);

    const messages = await settled(b_, threadId);
    const at = messages.findIndex((m) => m.id === questionId);
    const question = messages[at];
    const answer = messages[at + 1];
    expect(question?.metadata?.sessionId).toBe(session.id);
    expect(answer?.role).toBe("assistant");
    expect(answer?.metadata?.sessionId).toBe(session.id);
    expect(answer?.metadata?.status).toBe("complete");
    // The new session knows the fact through the handoff A's reset wrote.
    expect(textOf(answer)).toContain("the boat is blue");
  });

  test("a cancel sent to B ends the reset running on A", async () => {
    const client = await ChatClient.guest(serverA().url);
    const threadId = randomUUID();
    await (await client.send(threadId, "remember the kite is red")).finished;
    const reset = postJson(client, serverA().url, `/api/threads/${threadId}/reset`, {
      fromSession: 1,
    });
    const b_ = client.on(serverB().url);
    await expect
      .poll(async () => ((await b_.thread(threadId)) as { reset?: unknown }).reset, {
        timeout: 10_000,
      })
      .toBeTruthy();
    const cancel = await postJson(client, serverB().url, `/api/threads/${threadId}/reset/cancel`, {
      fromSession: 1,
    });
    expect(cancel.status).toBe(200);
    const outcome = await reset;
    expect(outcome.status).toBe(200);
    expect(await outcome.json()).toMatchObject({ cancelled: true, fromSession: 1 });
    const view = await b_.thread(threadId);
    expect(view.sessions.map((s) => s.number)).toEqual([1]);
  });

  test("a stop sent to B stops A's reply within a second; it ends partial", async () => {
    expect(fullReply, "the resume test ran first").not.toBe("");
    const client = await ChatClient.guest(serverA().url);
    const threadId = randomUUID();
    const onA = await client.send(threadId, PROMPT);
    expect(await onA.until(isText)).not.toBeNull();

    const stopSent = Date.now();
    const stop = await postJson(client, serverB().url, `/api/chat/${threadId}/stop`, {});
    expect(stop.status).toBe(200);
    expect(((await stop.json()) as { stopping: number }).stopping).toBe(1);
    await onA.finished;
    const lastPartAt = onA.parts.at(-1)?.at ?? Number.POSITIVE_INFINITY;
    expect(lastPartAt - stopSent).toBeLessThan(1_000);

    const answer = (await settled(client.on(serverB().url), threadId)).at(-1);
    expect(answer?.role).toBe("assistant");
    expect(answer?.metadata?.status).toBe("partial");
    const partial = textOf(answer);
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(fullReply.length);
    expect(fullReply.startsWith(partial)).toBe(true);
  });

  test("B answers 404 to a resume or a stop for another user's thread", async () => {
    const owner = await ChatClient.guest(serverA().url);
    const other = await ChatClient.guest(serverB().url);
    const threadId = randomUUID();
    const onA = await owner.send(threadId, PROMPT);
    expect(await onA.until(isText)).not.toBeNull();

    // While the owner's reply is live, so "nothing to follow" (204) cannot hide a leak.
    const stranger = await resume(other, serverB().url, threadId);
    expect(stranger.status).toBe(404);
    const stop = await postJson(other, serverB().url, `/api/chat/${threadId}/stop`, {});
    expect(stop.status).toBe(404);
    // The owner's reply was not stopped by the stranger's request.
    const own = await resume(owner, serverB().url, threadId);
    expect(own.status).toBe(200);
    await Promise.all([onA.finished, own.finished]);
    expect(streamedText(own)).toBe(streamedText(onA));
    expect((await settled(owner, threadId)).at(-1)?.metadata?.status).toBe("complete");
  });
});
