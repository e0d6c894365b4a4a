// What the handoff card and the session divider are drawn from: a continued thread's view opens
// with the stored handoff it continues (its key and revision for the owner, neither key nor
// content id on the share page), and a session a reset started says how that reset went.
import { randomBytes, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { listSessions } from "@/db/queries/sessions";
import { currentActor } from "@/lib/auth/server";
import { formatMessages } from "@/lib/chat/format-messages";
import { createShareLink, loadSharedThreadView } from "@/lib/chat/share";
import { resetThreadManually } from "@/lib/runs/reset-requests";
import { loadThreadView } from "@/lib/runs/thread-open";
import { guestHeaders } from "../support/auth";
import { createActor, sendTurn } from "../support/chat";
import { artifactOf, continueHandoff, upsert } from "./handoff-support";

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
});

const uniqueKey = (label: string) => `${label}-${randomBytes(4).toString("hex")}`;

describe("a continued thread's first load", () => {
  it("opens with the brief it continues: key and revision for the owner, no key when shared", async () => {
    const headers = await guestHeaders();
    const actor = await currentActor(headers);
    if (!actor) throw new Error("no guest");
    const key = uniqueKey("trip");
    await upsert(headers, { key, artifact: artifactOf({ goal: "Plan the trip" }) });
    const second = await upsert(headers, {
      key,
      artifact: artifactOf({
        goal: "Plan the Lisbon trip",
        confirmed_facts: ["the ferry leaves at nine"],
        unknowns: ["which hotel"],
        completed_work: ["ferry booked"],
        needs_authorization: ["pay the deposit"],
      }),
    });
    const threadId = randomUUID();
    const started = await continueHandoff(headers, key, { id: second.body.id, threadId });
    expect(started.status).toBe(201);

    const view = await loadThreadView({ userId: actor.id, threadId, limit: 50 });
    if (!view) throw new Error("no view");
    expect(view.messages).toEqual([]);
    expect(view.sessions).toHaveLength(1);
    const [session] = view.sessions;
    expect(session?.trigger).toBe("continuation");
    expect(session?.handoff).toMatchObject({ key, revision: 2 });
    expect(session?.handoff?.artifact).toMatchObject({
      goal: "Plan the Lisbon trip",
      confirmed_facts: ["the ferry leaves at nine"],
      unknowns: ["which hotel"],
      completed_work: ["ferry booked"],
      needs_authorization: ["pay the deposit"],
    });
    // Its first row is the divider of session 1 holding that brief, before any message exists.
    const { items, sessionStartIndex } = formatMessages(view.messages, view.sessions);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: "session_divider",
      sessionNumber: 1,
      session: { trigger: "continuation", handoff: { key, revision: 2 } },
    });
    expect(sessionStartIndex).toEqual({ 1: 0 });

    const { token } = await createShareLink({ userId: actor.id, threadId });
    const shared = await loadSharedThreadView({ token });
    const sharedSession = shared?.sessions[0];
    expect(sharedSession?.trigger).toBe("continuation");
    expect(sharedSession?.handoff?.key).toBe("");
    expect(sharedSession?.handoff?.revision).toBe(2);
    expect(sharedSession?.handoff?.artifact.goal).toBe("Plan the Lisbon trip");
    expect(JSON.stringify(shared)).not.toContain(key);
  });

  it("keeps a fresh thread's session 1 without a divider", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "hello there");
    const view = await loadThreadView({ userId: actor.id, threadId, limit: 50 });
    if (!view) throw new Error("no view");
    const { items } = formatMessages(view.messages, view.sessions);
    expect(items.map((i) => i.kind)).toEqual(["message", "message"]);
  });
});

describe("the divider's account of a reset", () => {
  it("gives context before → after, the duration, the handoff's source and its tokens", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "note the kettle is blue");
    await sendTurn(actor, threadId, "decide we use the red mugs");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });

    const view = await loadThreadView({ userId: actor.id, threadId, limit: 50 });
    if (!view) throw new Error("no view");
    const [first, second] = view.sessions;
    expect(first?.reset).toBeUndefined();
    const stored = await listSessions({ userId: actor.id, threadId });
    const reset = second?.reset;
    if (!reset) throw new Error("no reset details");
    expect(reset.before).toEqual({
      tokens: stored[0]?.endTokens,
      utilization: stored[0]?.endUtilization,
    });
    expect(reset.before?.tokens).toBeGreaterThan(0);
    expect(reset.after.tokens).toBeGreaterThan(0);
    expect(reset.after.utilization).toBeGreaterThan(0);
    expect(reset.after.utilization).toBeLessThan(1);
    expect(reset.durationMs).toBeGreaterThanOrEqual(0);
    // The offline model wrote it, and reports what its calls cost.
    expect(reset.source).toBe("model");
    expect(reset.writerTokens).toBeGreaterThan(0);

    // The share page shows the same account.
    const { token } = await createShareLink({ userId: actor.id, threadId });
    const shared = await loadSharedThreadView({ token });
    expect(shared?.sessions[1]?.reset).toEqual(reset);
  });
});
