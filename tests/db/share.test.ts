// The shared view's paging API over a real thread of three sessions (a threshold reset and a
// manual one): no id of the thread's in any answer, paging by cursors only its own link opens.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { GET } from "@/app/share/[token]/messages/route";
import { listHandoffRevisions } from "@/db/queries/handoff-reads";
import { listThreadMessages } from "@/db/queries/messages";
import { listSessions } from "@/db/queries/sessions";
import type { Actor } from "@/lib/auth/server";
import { createShareLink, revokeShareLink } from "@/lib/chat/share";
import type { SharedThreadPage } from "@/lib/chat/share-anchors";
import { resetThreadManually } from "@/lib/runs/reset-requests";
import { createActor, sendTurn } from "../support/chat";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

const FILLER =
  "Here is some ordinary chatter about the weather, the harbour, the trains and the long walk " +
  "along the river that we took yesterday afternoon before the rain started again";

interface Answer {
  status: number;
  text: string;
  body: SharedThreadPage & { error?: { code: string } };
}

async function page(token: string, query: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(`http://baton.test/share/${token}/messages`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const response = await GET(new Request(url), { params: Promise.resolve({ token }) });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) };
}

/** A thread of three sessions: session 2 by a threshold reset, session 3 by a manual one. */
async function threeSessionThread(actor: Actor): Promise<string> {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "1550";
  const threadId = randomUUID();
  await sendTurn(actor, threadId, "remember the launch code is 4242");
  for (let i = 0; i < 20; i++) {
    const turn = await sendTurn(actor, threadId, `${FILLER} (${i})`);
    if (turn.parts.some((p) => p.type === "data-context-reset")) break;
  }
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "100000";
  await sendTurn(actor, threadId, "todo pack the maps");
  const current = (await listSessions({ userId: actor.id, threadId })).at(-1)?.number ?? 0;
  await resetThreadManually({ userId: actor.id, threadId, fromSession: current });
  await sendTurn(actor, threadId, "what do you know?");
  return threadId;
}

/** Every id of the thread's a visitor must not see. */
async function idsOf(actor: Actor, threadId: string): Promise<string[]> {
  const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 500 });
  const sessions = await listSessions({ userId: actor.id, threadId });
  const revisions = await listHandoffRevisions({ ownerId: actor.id, key: threadId });
  return [
    threadId,
    ...messages.map((m) => m.id),
    ...sessions.map((s) => s.id),
    // A session handoff's key is the thread id.
    ...revisions.flatMap((r) => [r.id, r.handoffId, r.contentId]),
  ];
}

function leaked(text: string, ids: string[]): string[] {
  return ids.filter((id) => text.includes(id));
}

interface Fixture {
  actor: Actor;
  threadId: string;
  token: string;
  ids: string[];
  total: number;
}

let built: Promise<Fixture> | null = null;

/** One shared thread for the whole file, built by the first test that needs it. */
function fixture(): Promise<Fixture> {
  built ??= (async () => {
    const actor = await createActor();
    const threadId = await threeSessionThread(actor);
    const token = (await createShareLink({ userId: actor.id, threadId })).token;
    const ids = await idsOf(actor, threadId);
    const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 500 });
    return { actor, threadId, token, ids, total: messages.length };
  })();
  return built;
}

describe("shared thread paging", () => {
  it("pages the whole thread by cursors with no id of the thread's in any answer", async () => {
    const { actor, threadId, token, ids, total } = await fixture();
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => [s.number, s.trigger])).toEqual([
      [1, "initial"],
      [2, "threshold"],
      [3, "manual"],
    ]);
    expect(ids.length).toBeGreaterThan(total + 3);

    const answers: Answer[] = [await page(token, { limit: "3" })];
    for (let i = 0; i < 50; i++) {
      const older = answers.at(-1)?.body.olderCursor;
      if (!older) break;
      answers.push(await page(token, { before: older, limit: "3" }));
    }
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(leaked(answer.text, ids)).toEqual([]);
    }
    const seqs = answers
      .flatMap((a) => a.body.messages)
      .map((m) => m.metadata?.seq ?? 0)
      .sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: total }, (_, i) => i + 1));

    // What the list and cards need is all there: sessions with their cursor and handoff.
    const newest = answers[0]?.body;
    expect(newest?.sessions.map((s) => [s.number, s.trigger, s.firstSeq !== null])).toEqual([
      [1, "initial", true],
      [2, "threshold", true],
      [3, "manual", true],
    ]);
    const handoff = newest?.sessions[1]?.handoff;
    expect(handoff).toMatchObject({ key: "", revision: 1, sessionNumber: 1 });
    expect(handoff?.artifact.must_preserve).toContain("the launch code is 4242");
    expect(newest?.sessions[2]?.handoff?.revision).toBe(2);

    // Stand-ins are stable across pages and tie the list together: messages to their session,
    // the reset to the message it moved.
    const messages = answers.flatMap((a) => a.body.messages);
    const sessionIds = new Set(newest?.sessions.map((s) => s.id));
    for (const m of messages) expect(sessionIds.has(m.metadata?.sessionId ?? "")).toBe(true);
    const reset = messages
      .flatMap((m) => m.parts)
      .find((p) => p.type === "data-context-reset" && p.data.event === "reset_complete");
    expect(reset?.type).toBe("data-context-reset");
    if (reset?.type !== "data-context-reset") return;
    expect(reset.data.handoff?.key).toBe("");
    expect(reset.data.newSessionId).toBe(newest?.sessions[1]?.id);
    const moved = reset.data.movedMessageIds ?? [];
    expect(moved.length).toBeGreaterThan(0);
    const messageIds = new Set(messages.map((m) => m.id));
    for (const id of moved) expect(messageIds.has(id)).toBe(true);
    const again = await page(token, { limit: "3" });
    expect(again.body.messages.map((m) => m.id)).toEqual(newest?.messages.map((m) => m.id));
  });

  it("opens a session at its first message, and a stretch a skip past a cursor", async () => {
    const { token, ids } = await fixture();
    const newest = (await page(token, { limit: "2" })).body;
    const second = newest.sessions[1];
    expect(second?.cursor).toEqual(expect.any(String));
    const opened = await page(token, { from: second?.cursor ?? "", limit: "2" });
    expect(opened.status).toBe(200);
    expect(leaked(opened.text, ids)).toEqual([]);
    expect(opened.body.messages[0]?.metadata?.seq).toBe(second?.firstSeq);
    expect(opened.body.olderCursor).toEqual(expect.any(String));
    expect(opened.body.newerCursor).toEqual(expect.any(String));
    const next = await page(token, { from: opened.body.newerCursor ?? "", limit: "2" });
    expect(next.body.messages[0]?.metadata?.seq).toBe((second?.firstSeq ?? 0) + 2);
    const before = await page(token, { before: opened.body.olderCursor ?? "", limit: "1" });
    expect(before.body.messages.map((m) => m.metadata?.seq)).toEqual([(second?.firstSeq ?? 0) - 1]);

    const first = newest.sessions[0];
    const skipped = await page(token, { from: first?.cursor ?? "", skip: "3", limit: "2" });
    expect(skipped.status).toBe(200);
    expect(skipped.body.messages.map((m) => m.metadata?.seq)).toEqual([4, 5]);
  });

  it("refuses a cursor of another link, a malformed cursor and raw positions with a 400", async () => {
    const { token } = await fixture();
    const other = await createActor();
    const otherThread = randomUUID();
    await sendTurn(other, otherThread, "a second thread");
    const otherToken = (await createShareLink({ userId: other.id, threadId: otherThread })).token;
    const mine = (await page(token, { limit: "1" })).body;
    const theirs = (await page(otherToken, { limit: "1" })).body;
    const myCursor = mine.olderCursor ?? "";
    const sessionCursor = mine.sessions[0]?.cursor ?? "";
    expect(myCursor).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const foreign: Record<string, string>[] = [{ before: myCursor }, { from: sessionCursor }];
    for (const query of foreign) {
      const refused = await page(otherToken, query);
      expect(refused.status).toBe(400);
      expect(refused.body.error?.code).toBe("bad_request:cursor");
    }
    const theirCursor = theirs.sessions[0]?.cursor ?? "";
    expect((await page(token, { from: theirCursor })).status).toBe(400);

    const flipped = `${myCursor.slice(0, 5)}${myCursor[5] === "A" ? "B" : "A"}${myCursor.slice(6)}`;
    const malformed: Record<string, string>[] = [
      { before: "" },
      { before: "x" },
      { before: "A".repeat(22) },
      { before: flipped },
      { from: `${sessionCursor}=` },
      { from: "%00%00" },
      { before: myCursor, from: sessionCursor },
      { beforeSeq: "2" },
      { fromSeq: "1" },
      { skip: "2" },
      { from: sessionCursor, skip: "-1" },
      { from: sessionCursor, skip: "abc" },
      { from: sessionCursor, skip: "2147483647" },
      { limit: "0" },
    ];
    for (const query of malformed) {
      const refused = await page(token, query);
      expect({ query, status: refused.status }).toEqual({ query, status: 400 });
    }
  });

  it("answers 404 for a revoked link, its cursors included", async () => {
    const { actor, threadId, token } = await fixture();
    const cursor = (await page(token, { limit: "1" })).body.olderCursor ?? "";
    await revokeShareLink({ userId: actor.id, threadId });
    expect((await page(token)).status).toBe(404);
    expect((await page(token, { before: cursor })).status).toBe(404);
    expect((await page("not a token")).status).toBe(404);
  });
});
