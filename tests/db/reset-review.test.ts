// Review before replace: a reset asked with `review` stops at a stored draft (202); the user's
// edited artifact is committed as the new session's brief, or the draft is cancelled or expires;
// messages sent meanwhile wait for that decision and are answered in the session it leaves.
import { randomUUID } from "node:crypto";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as cancelPost } from "@/app/api/threads/[id]/reset/cancel/route";
import { POST as commitPost } from "@/app/api/threads/[id]/reset/commit/route";
import { POST as resetPost } from "@/app/api/threads/[id]/reset/route";
import { getDb } from "@/db/client";
import { getHandoffRevisionById } from "@/db/queries/handoff-reads";
import { getMessage, listThreadMessages } from "@/db/queries/messages";
import { currentPinTexts, pinText, unpinTexts } from "@/db/queries/pins";
import { getPlan } from "@/db/queries/plans";
import { getResetDraft } from "@/db/queries/reset-drafts";
import { getActiveReset, getReset, releaseDeadResets } from "@/db/queries/resets";
import { listRunEvents } from "@/db/queries/run-events";
import { listSessions } from "@/db/queries/sessions";
import { updateThread } from "@/db/queries/threads";
import { agentProfiles, resetDrafts, runs, serverInstances, threadResets } from "@/db/schema";
import type { ProviderEnv } from "@/lib/ai/providers";
import { type Actor, currentActor } from "@/lib/auth/server";
import { messageText } from "@/lib/chat/request";
import type { ContextResetPart, DraftView } from "@/lib/chat/types";
import { recoverThread } from "@/lib/runs/recovery";
import { settleRecoveries } from "@/lib/runs/recovery-registry";
import { loadThreadView } from "@/lib/runs/thread-open";
import { guestHeaders } from "../support/auth";
import { parseSse, type SsePart, sendTurn, startTurn } from "../support/chat";
import { APP_ORIGIN, sameOrigin } from "../support/route-call";

/** Handoff-writer calls (the offline model's JSON answers) made through the provider registry. */
const writer = { calls: 0 };

function countingModel(inner: LanguageModelV3): LanguageModelV3 {
  return {
    ...inner,
    specificationVersion: "v3",
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doStream: (options) => inner.doStream(options),
    doGenerate: (options) => {
      if (options.responseFormat?.type === "json") writer.calls++;
      return inner.doGenerate(options);
    },
  };
}

vi.mock("@/lib/ai/providers", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/ai/providers")>();
  return {
    ...original,
    getLanguageModel: (modelId: string, env?: ProviderEnv) =>
      countingModel(original.getLanguageModel(modelId, env)),
  };
});

const saved = { ...process.env };
beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
});
afterEach(async () => {
  await settleRecoveries();
  process.env = { ...saved };
});

type Handler = typeof resetPost;

async function call(
  handler: Handler,
  path: string,
  headers: Headers,
  threadId: string,
  body: unknown,
) {
  const response = await handler(
    new Request(`${APP_ORIGIN}/api/threads/${threadId}/${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: threadId }) },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface User {
  actor: Actor;
  headers: Headers;
}

async function user(): Promise<User> {
  const guest = await guestHeaders();
  const actor = await currentActor(guest);
  if (!actor) throw new Error("no guest");
  return { actor, headers: sameOrigin(guest.get("cookie") ?? "") };
}

/** A thread with some history in session 1: a pin, a decision and completed work. */
async function threadWithHistory(u: User): Promise<string> {
  const threadId = randomUUID();
  await sendTurn(u.actor, threadId, "Let's plan the harbour survey");
  await sendTurn(u.actor, threadId, "remember the buoy is red");
  await sendTurn(u.actor, threadId, "decide we sail on Tuesday");
  return threadId;
}

const reset = (u: User, threadId: string, body: unknown) =>
  call(resetPost, "reset", u.headers, threadId, body);
const commit = (u: User, threadId: string, body: unknown) =>
  call(commitPost as Handler, "reset/commit", u.headers, threadId, body);
const cancel = (u: User, threadId: string, body: unknown) =>
  call(cancelPost as Handler, "reset/cancel", u.headers, threadId, body);

async function draftOf(u: User, threadId: string): Promise<DraftView> {
  const answer = await reset(u, threadId, { fromSession: 1, review: true });
  expect(answer.status).toBe(202);
  return answer.body.draft as DraftView;
}

/** Waits until the user message `id` has an answer stored under it; returns that reply. */
async function answerOf(u: User, threadId: string, id: string) {
  let reply: Awaited<ReturnType<typeof listThreadMessages>>["messages"][number] | undefined;
  await expect
    .poll(
      async () => {
        const { messages } = await listThreadMessages({ userId: u.actor.id, threadId, limit: 500 });
        const at = messages.findIndex((m) => m.id === id);
        reply = messages[at + 1];
        return reply?.role === "assistant" && reply.status === "complete";
      },
      { timeout: 20_000, interval: 25 },
    )
    .toBe(true);
  if (!reply) throw new Error("no reply");
  return reply;
}

describe("a reset with review", () => {
  it("stops at one stored draft: the same draft on repeat, one writer call, no new session", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    writer.calls = 0;
    const draft = await draftOf(u, threadId);
    expect(draft).toMatchObject({ threadId, fromSession: 1, trigger: "manual" });
    expect(draft.state).toBe("awaiting_review");
    expect(draft.artifact.must_preserve).toContain("the buoy is red");
    expect(Date.parse(draft.expiresAt) - Date.parse(draft.createdAt)).toBeGreaterThan(
      23 * 3600_000,
    );
    expect(writer.calls).toBe(1);

    const again = await draftOf(u, threadId);
    expect(again).toEqual(draft);
    expect(writer.calls).toBe(1);

    expect((await getReset({ userId: u.actor.id, threadId, fromSession: 1 }))?.state).toBe(
      "awaiting_review",
    );
    expect(await listSessions({ userId: u.actor.id, threadId })).toHaveLength(1);
    const view = await loadThreadView({ userId: u.actor.id, threadId });
    expect(view?.draft).toEqual(draft);
    expect(view?.review).toBe("manual");
    expect(view?.reset).toBeNull();

    // A plain reset of that session must not go around the review.
    const plain = await reset(u, threadId, { fromSession: 1 });
    expect(plain.status).toBe(409);
    expect(plain.body).toMatchObject({ error: { code: "conflict:reset_awaiting_review" } });
    expect(await listSessions({ userId: u.actor.id, threadId })).toHaveLength(1);
  });

  it("commits the edited draft as the new session's brief and makes its must_preserve the pins", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    await pinText(getDb(), {
      userId: u.actor.id,
      threadId,
      text: "the buoy is red",
      source: "user",
    });
    await sendTurn(u.actor, threadId, "todo check the charts");
    await sendTurn(u.actor, threadId, "todo fuel the boat");
    await sendTurn(u.actor, threadId, "done t1");
    await sendTurn(u.actor, threadId, "done t2");
    const draft = await draftOf(u, threadId);
    const completed = draft.artifact.completed_work;
    expect(completed.length).toBeGreaterThan(0);
    const edited = {
      ...draft.artifact,
      goal: "Survey the harbour before the Tuesday sailing",
      completed_work: completed.slice(1),
      must_preserve: ["bring the tide tables"],
    };

    const first = await commit(u, threadId, { fromSession: 1, draft: edited });
    expect(first.status).toBe(201);
    const session = first.body.session as { id: string; number: number; trigger: string };
    expect(session).toMatchObject({ number: 2, trigger: "manual" });
    const handoff = first.body.handoff as { id: string; artifact: Record<string, unknown> };
    expect(handoff.artifact).toEqual(edited);

    // The stored revision N is exactly the edited draft, and session 2 starts from it.
    const sessions = await listSessions({ userId: u.actor.id, threadId });
    expect(sessions.map((s) => s.number)).toEqual([1, 2]);
    const revisionId = sessions[1]?.handoffRevisionId;
    if (!revisionId) throw new Error("session 2 has no handoff");
    const revision = await getHandoffRevisionById({ ownerId: u.actor.id, revisionId });
    expect(revision?.revision).toBe(1);
    expect(revision?.artifact).toEqual(edited);
    expect(sessions[1]?.resetStats).toMatchObject({ source: draft.source });
    expect(await currentPinTexts(getDb(), { userId: u.actor.id, threadId })).toEqual([
      "bring the tide tables",
    ]);
    expect((await getResetDraft({ userId: u.actor.id, threadId, fromSession: 1 }))?.state).toBe(
      "committed",
    );
    expect((await loadThreadView({ userId: u.actor.id, threadId }))?.draft).toBeNull();

    const repeat = await commit(u, threadId, { fromSession: 1, draft: edited });
    expect(repeat.status).toBe(200);
    expect((repeat.body.session as { id: string }).id).toBe(session.id);
    expect(await listSessions({ userId: u.actor.id, threadId })).toHaveLength(2);
  });

  it("commits an unedited draft with the pins as they are now, not as they were drafted", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    await pinText(getDb(), {
      userId: u.actor.id,
      threadId,
      text: "the buoy is red",
      source: "user",
    });
    const draft = await draftOf(u, threadId);
    expect(draft.artifact.must_preserve).toContain("the buoy is red");
    // While the draft waits: the buoy is unpinned on a card, the anchor pinned.
    await unpinTexts(getDb(), { userId: u.actor.id, threadId, texts: ["the buoy is red"] });
    await pinText(getDb(), {
      userId: u.actor.id,
      threadId,
      text: "the anchor is blue",
      source: "user",
    });

    const done = await commit(u, threadId, { fromSession: 1, draft: draft.artifact });
    expect(done.status).toBe(201);
    const carried = (done.body.handoff as { artifact: { must_preserve: string[] } }).artifact
      .must_preserve;
    expect(carried).toContain("the anchor is blue");
    expect(carried).not.toContain("the buoy is red");
    expect(await currentPinTexts(getDb(), { userId: u.actor.id, threadId })).toEqual([
      "the anchor is blue",
    ]);
  });

  it("refuses a malformed draft with field errors and stores nothing", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    const draft = await draftOf(u, threadId);
    const bad = await commit(u, threadId, {
      fromSession: 1,
      draft: { ...draft.artifact, goal: 42, remaining_tasks: [{ id: "", task: "x" }] },
    });
    expect(bad.status).toBe(400);
    const fields = (bad.body.error as { fields?: Record<string, string[]> }).fields ?? {};
    expect(Object.keys(fields).some((f) => f.includes("goal"))).toBe(true);
    expect(await listSessions({ userId: u.actor.id, threadId })).toHaveLength(1);
    const stored = await getResetDraft({ userId: u.actor.id, threadId, fromSession: 1 });
    expect(stored?.state).toBe("awaiting_review");
    expect(stored?.artifact).toEqual(draft.artifact);
  });

  it("keeps the draft when the edited pins alone exceed the brief's bound (409 with the reason)", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    const draft = await draftOf(u, threadId);
    const pins = Array.from(
      { length: 6 },
      (_, i) => `pin ${i}: ${"keep this exact wording ".repeat(60)}`,
    );
    const answer = await commit(u, threadId, {
      fromSession: 1,
      draft: { ...draft.artifact, must_preserve: pins },
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ error: { code: "conflict:draft_too_large" } });
    expect(String((answer.body.error as { message: string }).message)).toMatch(/pinned items/);
    expect(await listSessions({ userId: u.actor.id, threadId })).toHaveLength(1);
    expect((await getResetDraft({ userId: u.actor.id, threadId, fromSession: 1 }))?.state).toBe(
      "awaiting_review",
    );
    const kept = await currentPinTexts(getDb(), { userId: u.actor.id, threadId });
    expect(kept.some((text) => text.startsWith("pin 0"))).toBe(false);
  });

  it("answers 404 to another user for the draft, its commit and its cancel", async () => {
    const owner = await user();
    const other = await user();
    const threadId = await threadWithHistory(owner);
    const draft = await draftOf(owner, threadId);
    for (const answer of [
      await reset(other, threadId, { fromSession: 1, review: true }),
      await commit(other, threadId, { fromSession: 1, draft: draft.artifact }),
      await cancel(other, threadId, { fromSession: 1 }),
    ]) {
      expect(answer.status).toBe(404);
      expect(JSON.stringify(answer.body)).not.toContain("buoy");
    }
    expect((await getResetDraft({ userId: owner.actor.id, threadId, fromSession: 1 }))?.state).toBe(
      "awaiting_review",
    );
  });

  it("is cancelled (idempotently): the thread stays in session 1 and a commit finds no draft", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    const draft = await draftOf(u, threadId);
    for (let i = 0; i < 2; i++) {
      const answer = await cancel(u, threadId, { fromSession: 1 });
      expect(answer).toEqual({ status: 200, body: { cancelled: true, fromSession: 1 } });
    }
    expect((await getResetDraft({ userId: u.actor.id, threadId, fromSession: 1 }))?.state).toBe(
      "cancelled",
    );
    const late = await commit(u, threadId, { fromSession: 1, draft: draft.artifact });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: { code: "conflict:no_draft" } });
    expect(await listSessions({ userId: u.actor.id, threadId })).toHaveLength(1);
    // The session can be reset again later, plainly.
    const plain = await reset(u, threadId, { fromSession: 1 });
    expect(plain.status).toBe(201);
  });
});

describe("a message sent while a draft awaits review", () => {
  async function sendWhileAwaiting(u: User, threadId: string, text: string) {
    const { messageId, response } = await startTurn(u.actor, threadId, text);
    expect(response.status).toBe(200);
    // The request ends at once: the review may take hours.
    const parts = parseSse(await response.text());
    expect(parts.filter((p) => p.type === "data-queued").map((p) => p.data)).toEqual([
      { messageId },
    ]);
    expect(parts.some((p) => p.type === "text-delta")).toBe(false);
    expect((await getMessage({ userId: u.actor.id, threadId, id: messageId }))?.status).toBe(
      "queued",
    );
    return messageId;
  }

  it("is answered after the commit, in session 2", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    const draft = await draftOf(u, threadId);
    const messageId = await sendWhileAwaiting(u, threadId, "what colour is the buoy?");
    const view = await loadThreadView({ userId: u.actor.id, threadId });
    expect(view?.answering).toContain(messageId);

    expect((await commit(u, threadId, { fromSession: 1, draft: draft.artifact })).status).toBe(201);
    const reply = await answerOf(u, threadId, messageId);
    const sessions = await listSessions({ userId: u.actor.id, threadId });
    expect(reply.sessionId).toBe(sessions[1]?.id);
    const question = await getMessage({ userId: u.actor.id, threadId, id: messageId });
    expect([question?.sessionId, question?.status]).toEqual([sessions[1]?.id, "complete"]);
    expect(messageText(reply.parts).length).toBeGreaterThan(0);
  });

  it("is answered after the cancel, in session 1", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    await draftOf(u, threadId);
    const messageId = await sendWhileAwaiting(u, threadId, "what colour is the buoy?");
    expect((await cancel(u, threadId, { fromSession: 1 })).status).toBe(200);
    const reply = await answerOf(u, threadId, messageId);
    const sessions = await listSessions({ userId: u.actor.id, threadId });
    expect(sessions).toHaveLength(1);
    expect(reply.sessionId).toBe(sessions[0]?.id);
  });

  it("sent while the draft is being written, waits for the review too and is answered after the commit", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "1500";
    const asked = reset(u, threadId, { fromSession: 1, review: true });
    await expect
      .poll(async () => (await getActiveReset({ userId: u.actor.id, threadId }))?.fromSession, {
        timeout: 20_000,
        interval: 20,
      })
      .toBe(1);
    const { messageId, response } = await startTurn(u.actor, threadId, "what colour is the buoy?");
    const drafted = await asked;
    expect(drafted.status).toBe(202);
    const parts = parseSse(await response.text());
    expect(parts.some((p) => p.type === "data-queued")).toBe(true);
    expect(parts.some((p) => p.type === "text-delta")).toBe(false);
    expect((await getMessage({ userId: u.actor.id, threadId, id: messageId }))?.status).toBe(
      "queued",
    );

    const draft = drafted.body.draft as DraftView;
    expect((await commit(u, threadId, { fromSession: 1, draft: draft.artifact })).status).toBe(201);
    const reply = await answerOf(u, threadId, messageId);
    expect(reply.sessionId).toBe((await listSessions({ userId: u.actor.id, threadId }))[1]?.id);
  });

  it("survives a restart: recovery leaves the draft and the queued message until the commit", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    const draft = await draftOf(u, threadId);
    const messageId = await sendWhileAwaiting(u, threadId, "what colour is the buoy?");
    // The server that drafted it dies: its instance falls silent.
    const dead = `dead-${randomUUID()}`;
    const then = new Date(Date.now() - 60_000);
    await getDb()
      .insert(serverInstances)
      .values({ id: dead, host: "gone-host", pid: 999_999, startedAt: then, heartbeatAt: then });
    await getDb()
      .update(threadResets)
      .set({ instanceId: dead })
      .where(and(eq(threadResets.threadId, threadId), eq(threadResets.fromSession, 1)));

    await releaseDeadResets();
    await recoverThread(u.actor.id, threadId, { acceptedBefore: new Date() }).done;
    expect((await getReset({ userId: u.actor.id, threadId, fromSession: 1 }))?.state).toBe(
      "awaiting_review",
    );
    const view = await loadThreadView({ userId: u.actor.id, threadId });
    expect(view?.draft).toEqual(draft);
    const { messages } = await listThreadMessages({ userId: u.actor.id, threadId, limit: 500 });
    expect(messages.at(-1)).toMatchObject({ id: messageId, status: "queued" });

    expect((await commit(u, threadId, { fromSession: 1, draft: draft.artifact })).status).toBe(201);
    const reply = await answerOf(u, threadId, messageId);
    expect(reply.sessionId).toBe((await listSessions({ userId: u.actor.id, threadId }))[1]?.id);
  });

  it("is answered in session 1 when the draft expires", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    await draftOf(u, threadId);
    const messageId = await sendWhileAwaiting(u, threadId, "what colour is the buoy?");
    // A day later: its time is up.
    await getDb()
      .update(resetDrafts)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(resetDrafts.threadId, threadId));

    const view = await loadThreadView({ userId: u.actor.id, threadId });
    expect(view?.draft).toBeNull();
    expect((await getResetDraft({ userId: u.actor.id, threadId, fromSession: 1 }))?.state).toBe(
      "expired",
    );
    expect((await getReset({ userId: u.actor.id, threadId, fromSession: 1 }))?.state).toBe(
      "cancelled",
    );
    const reply = await answerOf(u, threadId, messageId);
    const sessions = await listSessions({ userId: u.actor.id, threadId });
    expect(sessions).toHaveLength(1);
    expect(reply.sessionId).toBe(sessions[0]?.id);
  });
  it("a message sent after the draft's time is up ends the draft and is answered at once in session 1", async () => {
    const u = await user();
    const threadId = await threadWithHistory(u);
    await draftOf(u, threadId);
    await getDb()
      .update(resetDrafts)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(resetDrafts.threadId, threadId));

    const { messageId, response } = await startTurn(u.actor, threadId, "is the buoy still red?");
    const parts = parseSse(await response.text());
    expect(parts.some((p) => p.type === "data-queued")).toBe(false);
    expect(parts.some((p) => p.type === "text-delta")).toBe(true);
    expect((await getResetDraft({ userId: u.actor.id, threadId, fromSession: 1 }))?.state).toBe(
      "expired",
    );
    const reply = await answerOf(u, threadId, messageId);
    const sessions = await listSessions({ userId: u.actor.id, threadId });
    expect(sessions).toHaveLength(1);
    expect(reply.sessionId).toBe(sessions[0]?.id);
  });
});

describe("review always", () => {
  const resetEvents = (parts: SsePart[]) =>
    parts
      .filter((p) => p.type === "data-context-reset")
      .map((p) => p.data as unknown as ContextResetPart);

  async function alwaysReviewing(u: User, threadId: string) {
    const profile = `review-${threadId}`;
    await getDb().insert(agentProfiles).values({
      id: profile,
      userId: u.actor.id,
      name: "Reviewed",
      systemPrompt: "You work through plans.",
      contextStrategy: "reset",
      resetThreshold: 0.8,
      compactThreshold: 0.5,
      maxSteps: 25,
      reviewResets: "always",
    });
    await updateThread({ userId: u.actor.id, threadId, profile });
  }

  const runsOf = (threadId: string) =>
    getDb().select().from(runs).where(eq(runs.threadId, threadId)).orderBy(runs.startedAt);

  it("stops a reset between two steps at the draft, ends the stream, and the commit resumes the run", async () => {
    process.env.BATON_LOCAL_CONTEXT_WINDOW = "4096";
    const u = await user();
    const threadId = randomUUID();
    await sendTurn(
      u.actor,
      threadId,
      "plan: outline the guide; draft the intro; list the tools; write the examples; review the text; publish the guide",
    );
    await alwaysReviewing(u, threadId);
    const view0 = await loadThreadView({ userId: u.actor.id, threadId });
    expect(view0?.review).toBe("always");

    const turn = await sendTurn(u.actor, threadId, "work through the plan");
    const events = resetEvents(turn.parts);
    expect(events.map((e) => e.event)).toEqual([
      "reset_starting",
      "input_blocked",
      "awaiting_review",
    ]);
    const draft = events.at(-1)?.draft;
    expect(draft).toMatchObject({ threadId, fromSession: 1, trigger: "threshold" });
    // Nothing streams after the draft: the stream ends there.
    const at = turn.parts.findIndex((p) => p.type === "data-context-reset");
    expect(
      turn.parts.slice(at).some((p) => p.type.startsWith("tool-") || p.type === "text-delta"),
    ).toBe(false);
    const [, parked] = await runsOf(threadId);
    expect(parked?.status).toBe("awaiting_review");
    // The run's journal says where it stopped.
    const journal = await listRunEvents({ userId: u.actor.id, threadId, runId: parked?.id ?? "" });
    expect(journal?.events.map((e) => e.type)).toContain("reset_awaiting_review");
    expect(
      (await getPlan(getDb(), { userId: u.actor.id, threadId }))?.items.some(
        (i) => i.status !== "done",
      ),
    ).toBe(true);
    // A restart does not take the parked run for a dead one.
    await recoverThread(u.actor.id, threadId, { acceptedBefore: new Date() }).done;
    expect((await runsOf(threadId))[1]?.status).toBe("awaiting_review");

    if (!draft) throw new Error("no draft");
    expect((await commit(u, threadId, { fromSession: 1, draft: draft.artifact })).status).toBe(201);
    // The run resumes in session 2; each further reset it needs stops for review too.
    let committed = 1;
    for (let i = 0; i < 6; i++) {
      const seen: { draft: DraftView | null } = { draft: null };
      const settled = async () => {
        const status = (await runsOf(threadId))[1]?.status;
        seen.draft = (await loadThreadView({ userId: u.actor.id, threadId }))?.draft ?? null;
        const fresh = (seen.draft?.fromSession ?? 0) > committed;
        if (status === "awaiting_review" && fresh) return "parked";
        return status === "running" || status === "awaiting_review" ? "running" : "ended";
      };
      await expect.poll(settled, { timeout: 30_000, interval: 50 }).not.toBe("running");
      const parkedAgain = seen.draft;
      if (!parkedAgain || parkedAgain.fromSession <= committed) break;
      committed = parkedAgain.fromSession;
      const done = await commit(u, threadId, {
        fromSession: committed,
        draft: parkedAgain.artifact,
      });
      expect(done.status).toBe(201);
    }
    const resumed = (await runsOf(threadId))[1];
    expect(resumed?.id).toBe(parked?.id);
    expect(resumed?.status).toBe("completed");
    const sessions = await listSessions({ userId: u.actor.id, threadId });
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    expect(resumed?.sessionIds).toEqual(sessions.map((s) => s.id));
    expect(
      (await getPlan(getDb(), { userId: u.actor.id, threadId }))?.items.map((i) => i.status),
    ).toEqual(Array(6).fill("done"));
  });

  it("stops a reset before a turn at the draft; after a cancel the message is answered in session 1", async () => {
    process.env.BATON_LOCAL_CONTEXT_WINDOW = "1550";
    const u = await user();
    const threadId = randomUUID();
    await sendTurn(u.actor, threadId, "Let's plan a long trip together");
    await alwaysReviewing(u, threadId);
    let stopped: { messageId: string; parts: SsePart[] } | null = null;
    for (let i = 0; i < 20 && !stopped; i++) {
      const turn = await sendTurn(
        u.actor,
        threadId,
        `Here is some ordinary chatter about the weather, the harbour and the trains (${i})`,
      );
      if (resetEvents(turn.parts).length > 0) stopped = turn;
    }
    if (!stopped) throw new Error("the session never reached its threshold");
    expect(resetEvents(stopped.parts).map((e) => e.event)).toEqual([
      "reset_starting",
      "input_blocked",
      "awaiting_review",
    ]);
    expect(stopped.parts.some((p) => p.type === "text-delta")).toBe(false);
    const view = await loadThreadView({ userId: u.actor.id, threadId });
    expect(view?.draft?.trigger).toBe("threshold");

    expect((await cancel(u, threadId, { fromSession: 1 })).status).toBe(200);
    const reply = await answerOf(u, threadId, stopped.messageId);
    const sessions = await listSessions({ userId: u.actor.id, threadId });
    expect(sessions).toHaveLength(1);
    expect(reply.sessionId).toBe(sessions[0]?.id);
    const mine = (await runsOf(threadId)).filter((r) => r.requestMessageId === stopped?.messageId);
    expect(mine.map((r) => r.status)).toEqual(["completed"]);
  });
});
