// Order across resets: every answer sits directly under its question in stored seq order, queued
// messages are answered after the message that triggered the reset (in seq order), and every
// stream that saw a reset start also sees how it ended — committed, cancelled or failed.
import { randomUUID } from "node:crypto";
import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getMessage, listThreadMessages } from "@/db/queries/messages";
import { listSessions } from "@/db/queries/sessions";
import type { Message } from "@/db/schema";
import type { ContextResetPart } from "@/lib/chat/types";
import { createOfflineModel } from "@/lib/demo-model/model";
import { cancelThreadReset } from "@/lib/runs/reset-requests";
import {
  createActor,
  replyText,
  type SsePart,
  startTurn,
  waitForStoredReplies,
} from "../support/chat";
import { openStream } from "../support/live-stream";

const saved = { ...process.env };

beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "1550";
});

afterEach(() => {
  process.env = { ...saved };
});

const FILLER =
  "Here is some ordinary chatter about the weather, the harbour, the trains and the long walk " +
  "along the river that we took yesterday afternoon before the rain started again";

const TERMINAL = new Set(["reset_complete", "reset_cancelled", "reset_failed"]);

function resetEvents(parts: SsePart[]): ContextResetPart[] {
  return parts
    .filter((p) => p.type === "data-context-reset")
    .map((p) => p.data as unknown as ContextResetPart);
}

/**
 * The offline model, whose handoff calls (structured output) wait until the gate opens — or
 * until their abort signal fires. `pin` makes the handoff pin a fact no new session can hold,
 * so the reset fails its fit check.
 */
function gatedModel() {
  const inner = createOfflineModel();
  let open: () => void = () => {};
  let gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let pin = false;
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doGenerate: async (options: LanguageModelV3CallOptions) => {
      const signal = options.abortSignal;
      await new Promise<void>((resolve, reject) => {
        const abort = () => reject(signal?.reason ?? new Error("aborted"));
        if (signal?.aborted) return abort();
        signal?.addEventListener("abort", abort, { once: true });
        gate.then(resolve);
      });
      const result = await inner.doGenerate(options);
      if (!pin) return result;
      const artifact = {
        goal: "gated",
        state_summary: "working",
        must_preserve: [Array.from({ length: 2000 }, () => "pinned").join(" ")],
      };
      return { ...result, content: [{ type: "text", text: JSON.stringify(artifact) }] };
    },
    doStream: (options) => inner.doStream(options),
  };
  return {
    model,
    open: () => open(),
    close: () => {
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
    },
    failFit: () => {
      pin = true;
    },
  };
}

type Gated = ReturnType<typeof gatedModel>;
type Actor = Awaited<ReturnType<typeof createActor>>;

/** Sends filler until a message's own turn starts a threshold reset; returns that turn mid-reset. */
async function turnThatResets(actor: Actor, threadId: string, gated: Gated) {
  const deps = { languageModel: () => gated.model };
  for (let i = 0; i < 30; i++) {
    const { messageId, response } = await startTurn(actor, threadId, `${FILLER} (${i})`, deps);
    const stream = openStream(response);
    const blocked = await stream.until(
      (p) => p.type === "data-context-reset" && p.data?.event === "input_blocked",
    );
    if (blocked) return { messageId, stream, deps };
    await stream.done;
    await waitForStoredReplies(actor, threadId);
  }
  throw new Error("no threshold reset within 30 messages");
}

async function stored(actor: Actor, threadId: string): Promise<Message[]> {
  return (await listThreadMessages({ userId: actor.id, threadId, limit: 1000 })).messages;
}

/** Each question's answers, the stored rows right under it, until the next user message. */
function answersUnder(rows: Message[], questionId: string): Message[] {
  const at = rows.findIndex((m) => m.id === questionId);
  expect(at).toBeGreaterThanOrEqual(0);
  const out: Message[] = [];
  for (const row of rows.slice(at + 1)) {
    if (row.role === "user") break;
    out.push(row);
  }
  return out;
}

/** Every user message has an answer directly under it, and nothing else sits between them. */
function expectEveryQuestionAnsweredInPlace(rows: Message[]) {
  const seqs = rows.map((m) => m.seq);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  for (const question of rows.filter((m) => m.role === "user")) {
    const answers = answersUnder(rows, question.id);
    expect(answers.length, `answer under ${question.id}`).toBeGreaterThan(0);
    expect(answers.every((a) => a.status === "complete")).toBe(true);
  }
}

/** The seq the live stream announced for its answer. */
function announcedSeq(parts: SsePart[]): number | undefined {
  const meta = parts.find(
    (p) =>
      p.type === "message-metadata" &&
      typeof (p as { messageMetadata?: { seq?: number } }).messageMetadata?.seq === "number",
  ) as { messageMetadata?: { seq?: number } } | undefined;
  return meta?.messageMetadata?.seq;
}

/** The trigger and one queued message: both answered, trigger first, each under its question. */
async function expectTriggerThenQueued(
  actor: Actor,
  threadId: string,
  trigger: { id: string; parts: SsePart[] },
  queued: { id: string; parts: SsePart[] },
  sessionNumber: number,
) {
  await waitForStoredReplies(actor, threadId);
  const rows = await stored(actor, threadId);
  expectEveryQuestionAnsweredInPlace(rows);
  const sessions = await listSessions({ userId: actor.id, threadId });
  const session = sessions.find((s) => s.number === sessionNumber);
  const [triggerAnswer] = answersUnder(rows, trigger.id);
  const [queuedAnswer] = answersUnder(rows, queued.id);
  expect(triggerAnswer?.sessionId).toBe(session?.id);
  expect(queuedAnswer?.sessionId).toBe(session?.id);
  expect((await getMessage({ userId: actor.id, threadId, id: queued.id }))?.sessionId).toBe(
    session?.id,
  );
  // The trigger was answered first: its reply was complete before the queued one began.
  expect(triggerAnswer && queuedAnswer).toBeTruthy();
  if (!triggerAnswer || !queuedAnswer) return;
  expect(triggerAnswer.seq).toBeLessThan(queuedAnswer.seq);
  expect(triggerAnswer.updatedAt.getTime()).toBeLessThanOrEqual(queuedAnswer.createdAt.getTime());
  // The queued answer's context holds the trigger's answer (it was written first).
  expect(replyText(queued.parts).length).toBeGreaterThan(0);
  // Each stream announced the seq its answer is stored at.
  expect(announcedSeq(trigger.parts)).toBe(triggerAnswer.seq);
  expect(announcedSeq(queued.parts)).toBe(queuedAnswer.seq);
  // The trigger's stream ended its reset part with a terminal event.
  expect(TERMINAL.has(resetEvents(trigger.parts).at(-1)?.event ?? "")).toBe(true);
}

describe("a threshold reset with a queued message", () => {
  it("cancelled: the trigger is answered first, then the queued one, both in session 1", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const gated = gatedModel();
    const trigger = await turnThatResets(actor, threadId, gated);
    // Answers that take a while, so the two could overlap if nothing ordered them.
    process.env.BATON_LOCAL_DELAY_MS = "5";
    const queued = await startTurn(actor, threadId, "what do you know?", trigger.deps);
    const queuedStream = openStream(queued.response);
    expect((await getMessage({ userId: actor.id, threadId, id: queued.messageId }))?.status).toBe(
      "queued",
    );

    // The handoff call never finishes on its own: only the cancel can end this reset.
    expect(await cancelThreadReset({ userId: actor.id, threadId, fromSession: 1 })).toEqual({
      cancelled: true,
      fromSession: 1,
    });
    const triggerParts = await trigger.stream.done;
    expect(resetEvents(triggerParts).map((e) => e.event)).toEqual([
      "reset_starting",
      "input_blocked",
      "reset_cancelled",
    ]);
    // Cancelling again reports the same outcome.
    expect(await cancelThreadReset({ userId: actor.id, threadId, fromSession: 1 })).toEqual({
      cancelled: true,
      fromSession: 1,
    });
    const queuedParts = await queuedStream.done;
    expect(queuedParts.find((p) => p.type === "data-queued")).toBeDefined();
    expect((await listSessions({ userId: actor.id, threadId })).map((s) => s.number)).toEqual([1]);
    await expectTriggerThenQueued(
      actor,
      threadId,
      { id: trigger.messageId, parts: triggerParts },
      { id: queued.messageId, parts: queuedParts },
      1,
    );
  });

  it("failed: the trigger is answered first, then the queued one, both in session 1", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const gated = gatedModel();
    const trigger = await turnThatResets(actor, threadId, gated);
    // Answers that take a while, so the two could overlap if nothing ordered them.
    process.env.BATON_LOCAL_DELAY_MS = "5";
    const queued = await startTurn(actor, threadId, "what do you know?", trigger.deps);
    const queuedStream = openStream(queued.response);
    expect((await getMessage({ userId: actor.id, threadId, id: queued.messageId }))?.status).toBe(
      "queued",
    );
    gated.failFit();
    gated.open();
    const triggerParts = await trigger.stream.done;
    expect(resetEvents(triggerParts).map((e) => e.event)).toEqual([
      "reset_starting",
      "input_blocked",
      "reset_failed",
    ]);
    const queuedParts = await queuedStream.done;
    expect((await listSessions({ userId: actor.id, threadId })).map((s) => s.number)).toEqual([1]);
    await expectTriggerThenQueued(
      actor,
      threadId,
      { id: trigger.messageId, parts: triggerParts },
      { id: queued.messageId, parts: queuedParts },
      1,
    );
  });

  it("committed: the trigger is answered first, then the queued one, both in session 2", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const gated = gatedModel();
    const trigger = await turnThatResets(actor, threadId, gated);
    // Answers that take a while, so the two could overlap if nothing ordered them.
    process.env.BATON_LOCAL_DELAY_MS = "5";
    const queued = await startTurn(actor, threadId, "what do you know?", trigger.deps);
    const queuedStream = openStream(queued.response);
    expect((await getMessage({ userId: actor.id, threadId, id: queued.messageId }))?.status).toBe(
      "queued",
    );
    gated.open();
    const triggerParts = await trigger.stream.done;
    expect(resetEvents(triggerParts).map((e) => e.event)).toEqual([
      "reset_starting",
      "input_blocked",
      "reset_complete",
    ]);
    const queuedParts = await queuedStream.done;
    await expectTriggerThenQueued(
      actor,
      threadId,
      { id: trigger.messageId, parts: triggerParts },
      { id: queued.messageId, parts: queuedParts },
      2,
    );
  });
});

/** What 50 concurrent streams and the stored thread must show once every answer is stored. */
async function expectFiftyAnswered(
  actor: Actor,
  threadId: string,
  turns: { messageId: string }[],
  all: SsePart[][],
) {
  let sawReset = 0;
  for (const parts of all) {
    const events = resetEvents(parts).map((e) => e.event);
    if (events.includes("reset_starting") || events.includes("input_blocked")) {
      sawReset++;
      expect(TERMINAL.has(events.at(-1) ?? "")).toBe(true);
    }
    expect(parts.at(-1)?.type).toBe("finish");
    expect(replyText(parts).length).toBeGreaterThan(0);
  }
  expect(sawReset).toBeGreaterThan(0);
  const rows = await stored(actor, threadId);
  expectEveryQuestionAnsweredInPlace(rows);
  const questions = rows.filter((m) => turns.some((t) => t.messageId === m.id));
  expect(questions).toHaveLength(50);
  // Answered in the seq order of their questions: each answer was begun after the previous
  // question's answer was complete.
  const answers = questions.map((q) => answersUnder(rows, q.id));
  for (let i = 1; i < answers.length; i++) {
    const previous = answers[i - 1]?.at(-1);
    const first = answers[i]?.[0];
    expect(previous && first).toBeTruthy();
    if (previous && first) {
      expect(previous.updatedAt.getTime()).toBeLessThanOrEqual(first.createdAt.getTime());
    }
  }
  // Each stream announced the seq its answer is stored at.
  turns.forEach((turn, i) => {
    expect(announcedSeq(all[all.length - turns.length + i] ?? [])).toBe(
      answersUnder(rows, turn.messageId)[0]?.seq,
    );
  });
}

describe("50 concurrent messages across a reset", () => {
  const send50 = (actor: Actor, threadId: string, deps: { languageModel: () => LanguageModelV3 }) =>
    Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        startTurn(actor, threadId, `concurrent message ${i}`, deps),
      ),
    );

  it("sent while a reset runs: every reset a stream saw start ends, all 50 answered in order", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const gated = gatedModel();
    const trigger = await turnThatResets(actor, threadId, gated);
    const turns = await send50(actor, threadId, trigger.deps);
    const streams = turns.map((t) => openStream(t.response));
    gated.open();
    const all = await Promise.all([trigger.stream.done, ...streams.map((s) => s.done)]);
    await waitForStoredReplies(actor, threadId);
    await expectFiftyAnswered(actor, threadId, turns, all);
  });

  it("sent at once into a thread they fill: every reset a stream saw start ends, all 50 answered in order", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const gated = gatedModel();
    gated.open();
    const deps = { languageModel: () => gated.model };
    const first = await startTurn(actor, threadId, FILLER, deps);
    await openStream(first.response).done;
    await waitForStoredReplies(actor, threadId);
    const turns = await send50(actor, threadId, deps);
    const all = await Promise.all(turns.map((t) => openStream(t.response).done));
    await waitForStoredReplies(actor, threadId);
    await expectFiftyAnswered(actor, threadId, turns, all);
  });
});
