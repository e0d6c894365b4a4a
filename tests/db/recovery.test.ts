// Crash recovery in-process: the state a server killed mid-reset or mid-reply leaves in the
// database (its instance silent, its lease and runs still `running`) is built directly, then a
// live instance recovers it. The real SIGKILL of a production server is e2e/crash.spec.ts.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { appendMessage, getMessage, listThreadMessages } from "@/db/queries/messages";
import { appendMessageAfter } from "@/db/queries/placement";
import {
  getActiveReset,
  getReset,
  INTERRUPTED_RESET,
  releaseDeadResets,
} from "@/db/queries/resets";
import { claimOrphans } from "@/db/queries/run-claims";
import { getCurrentSession, listSessions } from "@/db/queries/sessions";
import { type Message, runs, serverInstances, threadResets } from "@/db/schema";
import type { Actor } from "@/lib/auth/server";
import { messageText } from "@/lib/chat/request";
import { recoverThread } from "@/lib/runs/recovery";
import { runChatTurn } from "@/lib/runs/turn";
import { currentInstance } from "@/lib/runtime/instance";
import {
  createActor,
  parseSse,
  replyText,
  sendTurn,
  startTurn,
  waitForStoredReplies,
} from "../support/chat";
import { recordStatements } from "../support/statement-log";

const saved = { ...process.env };
beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
});
afterEach(() => {
  process.env = { ...saved };
});

/** An instance that stopped beating a minute ago: a server that was SIGKILLed. */
async function deadInstance(): Promise<string> {
  const id = `dead-${randomUUID()}`;
  const then = new Date(Date.now() - 60_000);
  await getDb()
    .insert(serverInstances)
    .values({ id, host: "gone-host", pid: 999_999, startedAt: then, heartbeatAt: then });
  return id;
}

async function deadRun(
  actor: Actor,
  threadId: string,
  instanceId: string,
  request: Message,
  messageId: string | null = null,
) {
  await getDb()
    .insert(runs)
    .values({
      threadId,
      userId: actor.id,
      maxSteps: 20,
      firstSessionId: request.sessionId,
      lastSessionId: request.sessionId,
      sessionIds: [request.sessionId],
      requestMessageId: request.id,
      messageId,
      instanceId,
    });
}

const userMessage = (text: string, status: "complete" | "queued" = "complete") => ({
  id: randomUUID(),
  role: "user" as const,
  parts: [{ type: "text", text }],
  status,
});

/** A question and the partial reply a server was streaming when it died: its run is `dead`'s. */
async function diedMidReply(actor: Actor, threadId: string, question: string, streamed: string) {
  const session = await getCurrentSession({ userId: actor.id, threadId });
  if (!session) throw new Error("no session");
  const request = await appendMessage({
    userId: actor.id,
    threadId,
    sessionId: session.id,
    message: userMessage(question),
  });
  const replyId = randomUUID();
  await appendMessage({
    userId: actor.id,
    threadId,
    sessionId: session.id,
    message: {
      id: replyId,
      role: "assistant",
      parts: [{ type: "step-start" }, { type: "text", text: streamed, state: "streaming" }],
      status: "partial",
    },
  });
  await deadRun(actor, threadId, await deadInstance(), request, replyId);
  return replyId;
}

async function thread(actor: Actor, threadId: string) {
  return (await listThreadMessages({ userId: actor.id, threadId, limit: 200 })).messages;
}

/** Every user message has a complete, non-empty assistant answer directly under it. */
function expectAnsweredInPlace(rows: Message[]) {
  rows.forEach((row, i) => {
    if (row.role !== "user") return;
    const next = rows[i + 1];
    expect(next?.role, `answer under "${messageText(row.parts)}"`).toBe("assistant");
    expect(next?.status).toBe("complete");
    expect(messageText(next?.parts ?? []).trim()).not.toBe("");
  });
  expect(rows.filter((r) => r.status === "queued")).toEqual([]);
}

describe("a reset that died with its server", () => {
  it("frees the lease, records the reset failed, and answers both messages in order under their questions", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "Let's plan the harbour survey");
    const session = await getCurrentSession({ userId: actor.id, threadId });
    if (!session) throw new Error("no session");
    const dead = await deadInstance();

    // The killed server had taken the lease, stored the triggering message and a queued one.
    const trigger = await appendMessage({
      userId: actor.id,
      threadId,
      sessionId: session.id,
      message: userMessage("remember the buoy is red"),
    });
    await deadRun(actor, threadId, dead, trigger);
    await getDb()
      .insert(threadResets)
      .values({
        threadId,
        fromSession: session.number,
        trigger: "threshold",
        state: "running",
        leaseExpiresAt: new Date(Date.now() + 110_000),
        instanceId: dead,
      });
    const queued = await appendMessage({
      userId: actor.id,
      threadId,
      sessionId: session.id,
      message: userMessage("what colour is the buoy?", "queued"),
    });
    await deadRun(actor, threadId, dead, queued);

    // The lease of a dead instance holds nothing up, well before its two minutes are over.
    expect(await getActiveReset({ userId: actor.id, threadId })).toBeNull();
    const released = await releaseDeadResets();
    expect(released.map((r) => r.threadId)).toContain(threadId);
    const reset = await getReset({ userId: actor.id, threadId, fromSession: session.number });
    expect([reset?.state, reset?.reason]).toEqual(["failed", INTERRUPTED_RESET]);

    await recoverThread(actor.id, threadId, { acceptedBefore: new Date() }).done;

    const rows = await thread(actor, threadId);
    expectAnsweredInPlace(rows);
    const texts = rows.map((r) => `${r.role}:${messageText(r.parts).slice(0, 30)}`);
    const at = (id: string) => rows.findIndex((r) => r.id === id);
    expect(at(queued.id), texts.join("\n")).toBe(at(trigger.id) + 2);
    expect((await getMessage({ userId: actor.id, threadId, id: queued.id }))?.status).toBe(
      "complete",
    );
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(new Set(sessions.map((s) => s.number)).size).toBe(sessions.length);
    const runRows = await getDb().select().from(runs).where(eq(runs.threadId, threadId));
    expect(runRows.filter((r) => r.status === "running")).toEqual([]);
    for (const request of [trigger.id, queued.id]) {
      const mine = runRows.filter((r) => r.requestMessageId === request);
      expect(mine.map((r) => r.status).sort()).toEqual(["completed", "failed"]);
    }
  });
});

describe("a reply that died while streaming", () => {
  it("is kept and marked interrupted; Continue completes it with the rest", async () => {
    const actor = await createActor();
    const question = "Tell me about the harbour survey plan";
    // The same question on a thread of its own shows the whole answer the model gives.
    const reference = await sendTurn(actor, randomUUID(), question);
    const full = replyText(reference.parts);
    const words = full.split(" ");
    expect(words.length).toBeGreaterThan(6);
    const streamed = `${words.slice(0, Math.floor(words.length / 2)).join(" ")} `;

    const threadId = randomUUID();
    await sendTurn(actor, threadId, "Let's plan the harbour survey");
    const replyId = await diedMidReply(actor, threadId, question, streamed);

    await recoverThread(actor.id, threadId, { acceptedBefore: new Date() }).done;
    const interrupted = await getMessage({ userId: actor.id, threadId, id: replyId });
    expect(interrupted?.status).toBe("interrupted");
    expect(messageText(interrupted?.parts ?? [])).toBe(streamed);
    // Nothing answered it again behind the user's back.
    expect((await thread(actor, threadId)).at(-1)?.id).toBe(replyId);

    const response = await runChatTurn({
      actor,
      request: { trigger: "continue-message", id: threadId, messageId: replyId },
      signal: new AbortController().signal,
    });
    expect(response.status).toBe(200);
    const parts = parseSse(await response.text());
    expect(parts.find((p) => p.type === "start")).toMatchObject({ messageId: replyId });
    const done = await getMessage({ userId: actor.id, threadId, id: replyId });
    expect(done?.status).toBe("complete");
    expect(
      messageText(done?.parts ?? [])
        .replace(/\s+/g, " ")
        .trim(),
    ).toBe(full.replace(/\s+/g, " ").trim());

    // Continued once: a second Continue is refused and changes nothing.
    await expect(
      runChatTurn({
        actor,
        request: { trigger: "continue-message", id: threadId, messageId: replyId },
        signal: new AbortController().signal,
      }),
    ).rejects.toMatchObject({ code: "conflict:message" });
  });

  it("is saved while it streams: the row holds the text before the reply ends", async () => {
    process.env.BATON_LOCAL_DELAY_MS = "250";
    const actor = await createActor();
    const threadId = randomUUID();
    const { response } = await startTurn(actor, threadId, "Tell me about the harbour survey plan");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let body = "";
    const started = Date.now();
    while (Date.now() - started < 1_500) {
      const { value, done } = await reader.read();
      if (done) break;
      body += decoder.decode(value, { stream: true });
    }
    const shown = replyText(parseSse(body.slice(0, body.lastIndexOf("\n\n") + 2)));
    expect(shown.length).toBeGreaterThan(0);
    const rows = await thread(actor, threadId);
    const reply = rows.find((r) => r.role === "assistant");
    expect(reply?.status).toBe("partial");
    const stored = messageText(reply?.parts ?? []);
    expect(stored.length).toBeGreaterThan(0);
    expect(shown.startsWith(stored)).toBe(true);
    await reader.cancel();
    // The run goes on without its reader: let it finish before the file's database closes.
    await waitForStoredReplies(actor, threadId);
  });
});

describe("claims", () => {
  it("two instances recovering the same orphan: exactly one claims it", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "Let's plan the harbour survey");
    const session = await getCurrentSession({ userId: actor.id, threadId });
    if (!session) throw new Error("no session");
    const orphan = await appendMessage({
      userId: actor.id,
      threadId,
      sessionId: session.id,
      message: userMessage("anyone there?"),
    });
    const other = `live-${randomUUID()}`;
    await getDb().insert(serverInstances).values({ id: other, host: "h2", pid: 2 });
    const input = {
      userId: actor.id,
      threadId,
      maxSteps: 20,
      acceptedBefore: new Date(Date.now() + 1_000),
    };
    const results = await Promise.all([
      claimOrphans({ ...input, instanceId: await currentInstance() }),
      claimOrphans({ ...input, instanceId: other }),
      claimOrphans({ ...input, instanceId: other }),
    ]);
    expect(results.flat().map((c) => c.request.id)).toEqual([orphan.id]);
    const claimedRuns = await getDb()
      .select()
      .from(runs)
      .where(and(eq(runs.threadId, threadId), eq(runs.requestMessageId, orphan.id)));
    expect(claimedRuns).toHaveLength(1);
  });

  it("a fresh message is left to the request that accepted it", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "Let's plan the harbour survey");
    const session = await getCurrentSession({ userId: actor.id, threadId });
    if (!session) throw new Error("no session");
    await appendMessage({
      userId: actor.id,
      threadId,
      sessionId: session.id,
      message: userMessage("just sent"),
    });
    const claims = await claimOrphans({
      userId: actor.id,
      threadId,
      maxSteps: 20,
      instanceId: await currentInstance(),
      acceptedBefore: new Date(Date.now() - 10_000),
    });
    expect(claims).toEqual([]);
  });
});

describe("placement", () => {
  it("stores an answer directly under its question; later messages keep their order", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "first");
    const session = await getCurrentSession({ userId: actor.id, threadId });
    if (!session) throw new Error("no session");
    const base = { userId: actor.id, threadId, sessionId: session.id };
    const a = await appendMessage({ ...base, message: userMessage("question A") });
    const b = await appendMessage({ ...base, message: userMessage("question B", "queued") });
    const c = await appendMessage({ ...base, message: userMessage("question C", "queued") });
    const answer = (text: string) => ({
      id: randomUUID(),
      role: "assistant" as const,
      parts: [{ type: "text", text }],
      status: "complete" as const,
    });
    const ansA = await appendMessageAfter({ ...base, anchorId: a.id, message: answer("answer A") });
    const ansA2 = await appendMessageAfter({
      ...base,
      anchorId: ansA.id,
      message: answer("answer A, part 2"),
    });
    await appendMessageAfter({ ...base, anchorId: b.id, message: answer("answer B") });
    await appendMessageAfter({ ...base, anchorId: c.id, message: answer("answer C") });
    const rows = await thread(actor, threadId);
    expect(rows.slice(-7).map((r) => messageText(r.parts))).toEqual([
      "question A",
      "answer A",
      "answer A, part 2",
      "question B",
      "answer B",
      "question C",
      "answer C",
    ]);
    const seqs = rows.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(ansA2.seq).toBe(ansA.seq + 1);
  });
});

describe("recovery when a thread is opened or written to", () => {
  it("costs one statement when there is nothing to recover, and still finds a dead reply", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "Let's plan the harbour survey");
    const { statements } = await recordStatements(
      () => recoverThread(actor.id, threadId, { onTouch: true }).done,
    );
    expect(statements).toHaveLength(1);

    // A server died while streaming the next reply: the same touch now claims and settles it.
    const replyId = await diedMidReply(actor, threadId, "And the tide tables?", "The tides ");
    await recoverThread(actor.id, threadId, { onTouch: true }).done;
    expect((await getMessage({ userId: actor.id, threadId, id: replyId }))?.status).toBe(
      "interrupted",
    );
  });
});
