import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getCurrentHandoff, listHandoffRevisions } from "@/db/queries/handoff-reads";
import { getMessage, listThreadMessages } from "@/db/queries/messages";
import { getActiveReset } from "@/db/queries/resets";
import { listSessions } from "@/db/queries/sessions";
import type { ContextResetPart } from "@/lib/chat/types";
import { CARRIED_OVER_CLOSE_TAG, CARRIED_OVER_OPEN_TAG } from "@/lib/handoff/brief";
import { cancelThreadReset, resetThreadManually } from "@/lib/runs/reset-requests";
import {
  createActor,
  parseSse,
  replyText,
  sendTurn,
  startTurn,
  waitForStoredReplies,
} from "../support/chat";
import { promptTexts, spyModel } from "../support/spy-model";

const saved = { ...process.env };

beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "1550";
});

afterEach(() => {
  process.env = { ...saved };
});

function resetEvents(parts: ReturnType<typeof parseSse>): ContextResetPart[] {
  return parts
    .filter((p) => p.type === "data-context-reset")
    .map((p) => p.data as unknown as ContextResetPart);
}

const FILLER =
  "Here is some ordinary chatter about the weather, the harbour, the trains and the long walk " +
  "along the river that we took yesterday afternoon before the rain started again";

describe("threshold reset", () => {
  it("continues in a clean session 2 that knows only what the handoff carried", async () => {
    // The handoff is written at the reset here: the offline writer's summary then quotes only the
    // trigger's predecessor, never the sentinel. A handoff drafted ahead quotes the message that
    // was latest when it was drafted (tests/db/draft-ahead.test.ts), which here is the sentinel.
    process.env.BATON_DRAFT_THRESHOLD = "off";
    const actor = await createActor();
    const threadId = randomUUID();
    const spy = spyModel();
    const deps = { languageModel: () => spy.model };

    await sendTurn(actor, threadId, "Let's plan a long trip together", deps);
    await sendTurn(
      actor,
      threadId,
      "SENTINEL-ZEBRA-991 is a word I mention but never ask you to keep",
      deps,
    );
    await sendTurn(actor, threadId, "remember the launch code is 4242", deps);

    let resetParts: ContextResetPart[] = [];
    let resetTurn: Awaited<ReturnType<typeof sendTurn>> | null = null;
    for (let i = 0; i < 20 && resetParts.length === 0; i++) {
      const turn = await sendTurn(actor, threadId, `${FILLER} (${i})`, deps);
      resetParts = resetEvents(turn.parts);
      if (resetParts.length > 0) resetTurn = turn;
    }
    expect(resetTurn).not.toBeNull();
    expect(resetParts.map((p) => p.event)).toEqual([
      "reset_starting",
      "input_blocked",
      "reset_complete",
    ]);
    const complete = resetParts.at(-1);
    expect(complete?.sessionNumber).toBe(2);
    expect(complete?.movedMessageIds).toEqual([resetTurn?.messageId]);
    expect(complete?.handoff?.artifact.must_preserve).toContain("the launch code is 4242");
    // One part id per reset, updated in place.
    const ids = new Set(
      resetTurn?.parts.filter((p) => p.type === "data-context-reset").map((p) => p.id),
    );
    expect(ids.size).toBe(1);
    // After the reset the stream announces session 2 and answers from it.
    const sessionParts = resetTurn?.parts.filter((p) => p.type === "data-session") ?? [];
    expect(sessionParts.map((p) => p.data?.number)).toEqual([1, 2]);
    expect(replyText(resetTurn?.parts ?? []).length).toBeGreaterThan(0);

    // Stored: session 1 ended, session 2 started from handoff revision 1 and was accepted.
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => [s.number, s.trigger])).toEqual([
      [1, "initial"],
      [2, "threshold"],
    ]);
    expect(sessions[0]?.endedAt).not.toBeNull();
    const handoff = await getCurrentHandoff({ ownerId: actor.id, key: threadId });
    expect(handoff).toMatchObject({ revision: 1, state: "accepted", threadId });
    const triggering = await getMessage({
      userId: actor.id,
      threadId,
      id: resetTurn?.messageId ?? "",
    });
    expect(triggering?.sessionId).toBe(sessions[1]?.id);

    // The clean slate, asserted on the prompt the model actually received for session 2's answer.
    const answerPrompt = spy.calls.filter((c) => c.kind === "stream").at(-1)?.prompt ?? [];
    const texts = promptTexts(answerPrompt);
    const all = texts.map((t) => t.text).join("\n");
    expect(all).not.toContain("SENTINEL-ZEBRA-991");
    const system = texts
      .filter((t) => t.role === "system")
      .map((t) => t.text)
      .join("\n");
    const open = system.indexOf(CARRIED_OVER_OPEN_TAG);
    const close = system.indexOf(CARRIED_OVER_CLOSE_TAG);
    expect(open).toBeGreaterThanOrEqual(0);
    const fact = system.indexOf("4242");
    expect(fact).toBeGreaterThan(open);
    expect(fact).toBeLessThan(close);
    expect(system.indexOf("4242", close)).toBe(-1);
    for (const t of texts.filter((x) => x.role !== "system")) expect(t.text).not.toContain("4242");
    // Nothing of session 1 except the moved message reaches the model outside the block.
    expect(texts.filter((t) => t.role !== "system").length).toBe(1);

    // And the fact survives: asked after the reset, the model still knows it.
    const after = await sendTurn(actor, threadId, "what do you know?", deps);
    expect(replyText(after.parts)).toContain("4242");
    expect(replyText(after.parts)).not.toContain("SENTINEL-ZEBRA-991");
  });

  it("chains resets 1→2→3, keeping every revision and carrying must_preserve forward", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "remember the vault is in Lisbon");
    const first = await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    await sendTurn(actor, threadId, "todo pack the maps");
    const second = await resetThreadManually({ userId: actor.id, threadId, fromSession: 2 });
    expect([first.session.number, second.session.number]).toEqual([2, 3]);
    const revisions = await listHandoffRevisions({ ownerId: actor.id, key: threadId });
    expect(revisions.map((r) => [r.revision, r.state])).toEqual([
      [2, "accepted"],
      [1, "superseded"],
    ]);
    expect(second.handoff.artifact.must_preserve).toContain("the vault is in Lisbon");
    expect(second.handoff.artifact.remaining_tasks.map((t) => t.task)).toContain("pack the maps");
    const after = await sendTurn(actor, threadId, "what do you know?");
    expect(replyText(after.parts)).toContain("Lisbon");
  });
});

describe("manual reset", () => {
  // These watch a reset while its handoff is being written: one drafted ahead would commit at once.
  beforeEach(() => {
    process.env.BATON_DRAFT_THRESHOLD = "off";
  });

  it("creates exactly one session for 10 concurrent requests from the same session", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "remember the password policy is strict");
    process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "150";
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        resetThreadManually({ userId: actor.id, threadId, fromSession: 1 }),
      ),
    );
    const fulfilled = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(fulfilled).toHaveLength(10);
    expect(new Set(fulfilled.map((r) => r.session.id)).size).toBe(1);
    expect(fulfilled.filter((r) => r.created)).toHaveLength(1);
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => s.number)).toEqual([1, 2]);
    expect((await listHandoffRevisions({ ownerId: actor.id, key: threadId })).length).toBe(1);
    // A retry after the fact gets the same session, not a third.
    const retry = await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    expect(retry).toMatchObject({ created: false, session: { id: fulfilled[0]?.session.id } });
  });

  it("stores a message sent during the reset as queued and answers it in the new session", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "remember the river is called Tagus");
    process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "1500";
    const reset = resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    await expect
      .poll(() => getActiveReset({ userId: actor.id, threadId }), { interval: 10 })
      .not.toBeNull();

    const { messageId, response } = await startTurn(actor, threadId, "what do you know?");
    const stored = await getMessage({ userId: actor.id, threadId, id: messageId });
    expect(stored?.status).toBe("queued");
    const sessionsDuring = await listSessions({ userId: actor.id, threadId });
    expect(stored?.sessionId).toBe(sessionsDuring[0]?.id);

    const parts = parseSse(await response.text());
    const firstData = parts.find((p) => p.type.startsWith("data-"));
    expect(firstData).toMatchObject({ type: "data-queued", data: { messageId } });
    expect(parts.find((p) => p.type === "data-session")?.data?.number).toBe(2);
    expect(replyText(parts)).toContain("Tagus");
    await reset;
    await waitForStoredReplies(actor, threadId);

    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => s.number)).toEqual([1, 2]);
    const moved = await getMessage({ userId: actor.id, threadId, id: messageId });
    expect(moved).toMatchObject({ sessionId: sessions[1]?.id, status: "complete" });
    const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 50 });
    const answer = messages.at(-1);
    expect(answer).toMatchObject({
      role: "assistant",
      sessionId: sessions[1]?.id,
      status: "complete",
    });
  });

  it("answers queued messages in session N when the reset is cancelled", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "remember the bridge is red");
    process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "1500";
    const reset = resetThreadManually({ userId: actor.id, threadId, fromSession: 1 }).catch(
      (e) => e,
    );
    await expect
      .poll(() => getActiveReset({ userId: actor.id, threadId }), { interval: 10 })
      .not.toBeNull();
    const { messageId, response } = await startTurn(actor, threadId, "what do you know?");
    expect((await getMessage({ userId: actor.id, threadId, id: messageId }))?.status).toBe(
      "queued",
    );

    expect(await cancelThreadReset({ userId: actor.id, threadId, fromSession: 1 })).toEqual({
      cancelled: true,
      fromSession: 1,
    });
    const parts = parseSse(await response.text());
    expect(parts.find((p) => p.type === "data-session")?.data?.number).toBe(1);
    expect(replyText(parts)).toContain("bridge is red");
    expect(await reset).toMatchObject({ code: "conflict:reset_in_progress" });
    await waitForStoredReplies(actor, threadId);

    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => s.number)).toEqual([1]);
    expect(await getMessage({ userId: actor.id, threadId, id: messageId })).toMatchObject({
      sessionId: sessions[0]?.id,
      status: "complete",
    });
    expect(await getCurrentHandoff({ ownerId: actor.id, key: threadId })).toBeNull();
  });

  it("refuses to cancel a reset that already committed", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "hello");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    await expect(
      cancelThreadReset({ userId: actor.id, threadId, fromSession: 1 }),
    ).rejects.toMatchObject({
      code: "conflict:reset_committed",
    });
  });

  it("never resets another user's thread", async () => {
    const owner = await createActor();
    const other = await createActor();
    const threadId = randomUUID();
    await sendTurn(owner, threadId, "hello");
    await expect(
      resetThreadManually({ userId: other.id, threadId, fromSession: 1 }),
    ).rejects.toMatchObject({
      code: "not_found:thread",
    });
    await expect(
      cancelThreadReset({ userId: other.id, threadId, fromSession: 1 }),
    ).rejects.toMatchObject({
      code: "not_found:session",
    });
  });
});
