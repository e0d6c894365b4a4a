// Pins are thread state: the pins API, the pin tool through a chat turn, and what resets carry —
// exactly the thread's current pins, with an unpin winning over a model that lists the item again.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as continueRoute } from "@/app/api/handoffs/[key]/continue/route";
import { DELETE as unpinRoute } from "@/app/api/threads/[id]/pins/[pinId]/route";
import { GET as listRoute, POST as pinRoute } from "@/app/api/threads/[id]/pins/route";
import { POST as resetRoute } from "@/app/api/threads/[id]/reset/route";
import { GET as threadRoute } from "@/app/api/threads/[id]/route";
import { PIN_MAX_CHARS } from "@/core/pin-text";
import { getDb, rowsOf } from "@/db/client";
import { getActiveReset } from "@/db/queries/resets";
import { currentActor } from "@/lib/auth/server";
import { cancelThreadReset, resetThreadManually } from "@/lib/runs/reset-requests";
import { createAgents, setThreadAgent } from "../support/agents";
import { guestHeaders } from "../support/auth";
import { type SsePart, sendTurn } from "../support/chat";
import { createToolThread } from "../support/workspace";
import { getHandoff, upsert } from "./handoff-support";

const BASE = "http://localhost:3000";
const saved = { ...process.env };

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
});
beforeEach(() => {
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
});
afterEach(() => {
  process.env = { ...saved, BATON_LOCAL_DELAY_MS: "0" };
});

interface PinBody {
  id: string;
  text: string;
  source: string;
  state: string;
  createdAt: string;
}

async function user() {
  const headers = await guestHeaders();
  const actor = await currentActor(headers);
  if (!actor) throw new Error("no guest session");
  headers.set("content-type", "application/json");
  return { headers, actor };
}

type User = Awaited<ReturnType<typeof user>>;

/** A thread of `u` with one answered message in session 1. */
async function newThread(u: User, first = "note the build is green"): Promise<string> {
  const threadId = randomUUID();
  await sendTurn(u.actor, threadId, first);
  return threadId;
}

const params = (id: string, pinId?: string) => ({
  params: Promise.resolve(pinId ? { id, pinId } : { id }),
});

async function listPins(u: User, threadId: string) {
  const res = await listRoute(
    new Request(`${BASE}/api/threads/${threadId}/pins`, { headers: u.headers }),
    params(threadId),
  );
  return { status: res.status, body: (await res.json()) as { pins: PinBody[] } };
}

async function pin(u: User, threadId: string, body: unknown) {
  const res = await pinRoute(
    new Request(`${BASE}/api/threads/${threadId}/pins`, {
      method: "POST",
      headers: u.headers,
      body: JSON.stringify(body),
    }),
    params(threadId),
  );
  return {
    status: res.status,
    body: (await res.json()) as { pin: PinBody; error?: { code: string } },
  };
}

async function unpin(u: User, threadId: string, pinId: string) {
  const res = await unpinRoute(
    new Request(`${BASE}/api/threads/${threadId}/pins/${pinId}`, {
      method: "DELETE",
      headers: u.headers,
    }),
    params(threadId, pinId),
  );
  return {
    status: res.status,
    body: (await res.json()) as { pin: PinBody; error?: { code: string } },
  };
}

async function resetViaApi(u: User, threadId: string, fromSession: number) {
  const res = await resetRoute(
    new Request(`${BASE}/api/threads/${threadId}/reset`, {
      method: "POST",
      headers: u.headers,
      body: JSON.stringify({ fromSession }),
    }),
    params(threadId),
  );
  expect(res.status).toBe(201);
}

async function pinRows(threadId: string) {
  return rowsOf<{ text: string; state: string; source: string }>(
    await getDb().execute(
      sql`select text, state, source from thread_pins where thread_id = ${threadId} order by created_at, id`,
    ),
  );
}

async function mustPreserve(u: User, threadId: string, revision?: number): Promise<string[]> {
  const { body } = await getHandoff(u.headers, threadId, revision);
  return (body.artifact as { must_preserve: string[] }).must_preserve;
}

const texts = (pins: PinBody[]) => pins.map((p) => p.text);

describe("the pins API", () => {
  it("pins (201), finds it pinned again in other case and spacing (200), lists and unpins", async () => {
    const u = await user();
    const threadId = await newThread(u);
    const created = await pin(u, threadId, { text: "Deploy only on Fridays" });
    expect(created.status).toBe(201);
    expect(created.body.pin).toMatchObject({
      text: "Deploy only on Fridays",
      source: "user",
      state: "pinned",
    });
    const again = await pin(u, threadId, { text: "  deploy   only on FRIDAYS " });
    expect(again.status).toBe(200);
    expect(again.body.pin.id).toBe(created.body.pin.id);
    expect(texts((await listPins(u, threadId)).body.pins)).toEqual(["Deploy only on Fridays"]);

    const removed = await unpin(u, threadId, created.body.pin.id);
    expect(removed.status).toBe(200);
    expect(removed.body.pin).toMatchObject({ id: created.body.pin.id, state: "unpinned" });
    expect((await listPins(u, threadId)).body.pins).toEqual([]);
    // Pinned again by a person, the tombstone is pinned again.
    expect((await pin(u, threadId, { text: "Deploy only on Fridays" })).status).toBe(201);
    expect(texts((await listPins(u, threadId)).body.pins)).toEqual(["Deploy only on Fridays"]);
  });

  it("refuses empty, blank, too long and malformed pins with a 400 that stores nothing", async () => {
    const u = await user();
    const threadId = await newThread(u);
    const before = await pinRows(threadId);
    for (const body of [
      { text: "" },
      { text: "   \n " },
      { text: "x".repeat(PIN_MAX_CHARS + 1) },
      { text: 42 },
      {},
      { text: "ok", extra: true },
    ]) {
      const res = await pin(u, threadId, body);
      expect(res.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(res.body.error?.code).toBe("bad_request:body");
    }
    expect(await pinRows(threadId)).toEqual(before);
    // At the limit it is accepted.
    expect((await pin(u, threadId, { text: "y".repeat(PIN_MAX_CHARS) })).status).toBe(201);
  });

  it("answers 404 for another user's thread, an unknown pin and a malformed id, changing nothing", async () => {
    const owner = await user();
    const other = await user();
    const threadId = await newThread(owner);
    const { body } = await pin(owner, threadId, { text: "The vault is in Lisbon" });
    const before = await pinRows(threadId);

    expect((await listPins(other, threadId)).status).toBe(404);
    const forged = await pin(other, threadId, { text: "forged" });
    expect([forged.status, forged.body.error?.code]).toEqual([404, "not_found:thread"]);
    const stolen = await unpin(other, threadId, body.pin.id);
    expect([stolen.status, stolen.body.error?.code]).toEqual([404, "not_found:thread"]);
    expect(await pinRows(threadId)).toEqual(before);

    const unknown = await unpin(owner, threadId, randomUUID());
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, "not_found:pin"]);
    const malformed = await unpin(owner, threadId, "not-a-uuid");
    expect([malformed.status, malformed.body.error?.code]).toEqual([404, "not_found:pin"]);
    const noThread = await listPins(owner, randomUUID());
    expect(noThread.status).toBe(404);
  });

  it("stores a pin's secrets masked", async () => {
    const u = await user();
    const threadId = await newThread(u);
    const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD";
    const res = await pin(u, threadId, { text: `The deploy key is ${secret}` });
    expect(res.status).toBe(201);
    expect(res.body.pin.text).toMatch(/^The deploy key is \[REDACTED:/);
    expect(JSON.stringify(await pinRows(threadId))).not.toContain(secret);
  });
});

describe("the pin tool", () => {
  it("pins the text (masked) and refuses empty or too long text, storing nothing", async () => {
    const t = await createToolThread();
    expect(await t.call("pin", { text: "" })).toEqual({
      ok: false,
      error: "Give the text to pin.",
    });
    const long = await t.call("pin", { text: "z".repeat(PIN_MAX_CHARS + 1) });
    expect(long).toMatchObject({ ok: false });
    expect(String(long.error)).toContain(`at most ${PIN_MAX_CHARS} characters`);
    expect(await pinRows(t.threadId)).toEqual([]);

    const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD";
    const done = await t.call("pin", { text: `  staging  key ${secret} ` });
    expect(done).toEqual({ ok: true, pinned: expect.stringMatching(/^staging key \[REDACTED:/) });
    expect(await pinRows(t.threadId)).toEqual([
      { text: done.pinned, state: "pinned", source: "agent" },
    ]);
  });
});

describe("pins across resets", () => {
  it("the pin tool pins what the user asked to remember, in a chat turn", async () => {
    const u = await user();
    const threadId = await newThread(u, "remember the vault is in Lisbon");
    const pins = (await listPins(u, threadId)).body.pins;
    expect(pins).toMatchObject([{ text: "the vault is in Lisbon", source: "agent" }]);
  });

  it("the next reset carries exactly the current pins, and committed revisions stay as written", async () => {
    const u = await user();
    const threadId = await newThread(u, "remember the vault is in Lisbon");
    await sendTurn(u.actor, threadId, "remember the boat leaves at noon");
    await resetViaApi(u, threadId, 1);
    expect(await mustPreserve(u, threadId, 1)).toEqual([
      "the vault is in Lisbon",
      "the boat leaves at noon",
    ]);

    // Session 2: a person pins one item and unpins a carried one; the model (which copies the
    // brief it was given) lists the unpinned item again.
    const { pins } = (await listPins(u, threadId)).body;
    const boat = pins.find((p) => p.text === "the boat leaves at noon");
    if (!boat) throw new Error("boat not pinned");
    expect((await unpin(u, threadId, boat.id)).status).toBe(200);
    expect((await pin(u, threadId, { text: "Always use UTC" })).status).toBe(201);
    await sendTurn(u.actor, threadId, "todo pack the maps");
    await resetViaApi(u, threadId, 2);

    expect(await mustPreserve(u, threadId, 2)).toEqual([
      "the vault is in Lisbon",
      "Always use UTC",
    ]);
    expect(await mustPreserve(u, threadId, 1)).toEqual([
      "the vault is in Lisbon",
      "the boat leaves at noon",
    ]);
    expect(texts((await listPins(u, threadId)).body.pins)).toEqual([
      "the vault is in Lisbon",
      "Always use UTC",
    ]);

    // The thread view lists the current pins for the cards.
    const view = await threadRoute(
      new Request(`${BASE}/api/threads/${threadId}`, { headers: u.headers }),
      params(threadId),
    );
    const body = (await view.json()) as { pins: { id: string; text: string }[] };
    expect(body.pins.map((p) => p.text)).toEqual(["the vault is in Lisbon", "Always use UTC"]);
  });

  it("pins what the model adds when the reset commits, and nothing when it is cancelled", async () => {
    const u = await user();
    // An agent without the pin tool: `remember` is only in the conversation until a reset.
    await createAgents(u.actor, [{ id: "nopin", toolsAllow: ["list_files", "read_file"] }]);
    const threadId = await newThread(u, "hello");
    await setThreadAgent(u.actor, threadId, "nopin");
    const sent = await sendTurn(u.actor, threadId, "remember the gate code changes monthly");
    expect(sent.parts.some((p: SsePart) => p.type === "tool-input-available")).toBe(false);
    expect(await pinRows(threadId)).toEqual([]);

    process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "1500";
    const cancelled = resetThreadManually({ userId: u.actor.id, threadId, fromSession: 1 }).catch(
      (e: unknown) => e,
    );
    await expect
      .poll(() => getActiveReset({ userId: u.actor.id, threadId }), { interval: 10 })
      .not.toBeNull();
    expect(await cancelThreadReset({ userId: u.actor.id, threadId, fromSession: 1 })).toMatchObject(
      { cancelled: true },
    );
    expect(await cancelled).toMatchObject({ code: "conflict:reset_in_progress" });
    expect(await pinRows(threadId)).toEqual([]);

    process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
    await resetViaApi(u, threadId, 1);
    expect(await mustPreserve(u, threadId, 1)).toEqual(["the gate code changes monthly"]);
    expect(await pinRows(threadId)).toEqual([
      { text: "the gate code changes monthly", state: "pinned", source: "handoff" },
    ]);
  });

  it("a thread continued from a handoff starts with that handoff's pins", async () => {
    const u = await user();
    const key = `pinned-${randomUUID()}`;
    const written = await upsert(u.headers, {
      key,
      artifact: { goal: "g", state_summary: "s", must_preserve: ["keep the blue folder"] },
    });
    expect(written.status).toBe(201);
    const threadId = randomUUID();
    const res = await continueRoute(
      new Request(`${BASE}/api/handoffs/${key}/continue`, {
        method: "POST",
        headers: u.headers,
        body: JSON.stringify({ threadId }),
      }),
      { params: Promise.resolve({ key }) },
    );
    expect(res.status).toBe(201);
    expect((await listPins(u, threadId)).body.pins).toMatchObject([
      { text: "keep the blue folder", source: "handoff" },
    ]);
  });

  it("an agent's handoff to another carries the thread's pins, not what the user unpinned", async () => {
    const u = await user();
    await createAgents(u.actor, [
      { id: "writer", name: "Writer" },
      {
        id: "editor",
        name: "Editor",
        toolsAllow: ["read_file", "write_file", "edit_file"],
        delegation: { canHandoff: false },
      },
    ]);
    const threadId = await newThread(u, "hello");
    await setThreadAgent(u.actor, threadId, "writer");
    await sendTurn(u.actor, threadId, "remember the tone is plain");
    await sendTurn(u.actor, threadId, "write draft.md: a first draft. it is short");
    const tone = (await listPins(u, threadId)).body.pins.find(
      (p) => p.text === "the tone is plain",
    );
    if (!tone) throw new Error("tone not pinned");
    expect((await unpin(u, threadId, tone.id)).status).toBe(200);
    expect((await pin(u, threadId, { text: "Deploy from main only" })).status).toBe(201);

    const turn = await sendTurn(u.actor, threadId, "hand off to editor: polish draft.md");
    const part = turn.parts.find((p) => p.type === "data-agent-handoff")?.data as
      | { handoff: { brief: { mustPreserve: string[] } } }
      | undefined;
    expect(part?.handoff.brief.mustPreserve).toEqual(["Deploy from main only"]);
    expect(await mustPreserve(u, threadId, 1)).toEqual(["Deploy from main only"]);
  });
});
