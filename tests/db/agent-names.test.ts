// The thread view names the agents of its sessions and replies from the thread owner's own
// profiles, in one query per page; the shared view shows the same names under stand-in ids.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, getDb } from "@/db/client";
import * as schema from "@/db/schema";
import { agentProfiles, messages, sessions, threads } from "@/db/schema";
import { OFFLINE_MODEL_ID } from "@/lib/ai/registry";
import type { Actor } from "@/lib/auth/server";
import { createShareLink, loadSharedThreadView } from "@/lib/chat/share";
import { loadThreadView } from "@/lib/runs/thread-open";
import { createActor } from "../support/chat";

const holder = globalThis as unknown as { batonDb?: DatabaseHandle };

/** Runs `work` on a client that records each statement it sends. */
async function recordingQueries<T>(work: () => Promise<T>): Promise<{ result: T; sql: string[] }> {
  const handle = holder.batonDb as DatabaseHandle;
  const sql: string[] = [];
  const logger = { logQuery: (query: string) => sql.push(query) };
  const client = (handle.db as unknown as { $client: unknown }).$client;
  const db =
    handle.kind === "pglite"
      ? drizzlePglite(client as never, { schema, logger })
      : drizzlePostgres(client as never, { schema, logger });
  holder.batonDb = { ...handle, db: db as unknown as DatabaseHandle["db"] };
  try {
    return { result: await work(), sql };
  } finally {
    holder.batonDb = handle;
  }
}

const profileQueries = (sql: string[]) => sql.filter((q) => q.includes('"agent_profiles"'));

let owner: Actor;
let stranger: Actor;

async function addProfile(userId: string, id: string, name: string) {
  await getDb()
    .insert(agentProfiles)
    .values({ userId, id, name, systemPrompt: `You are ${name}.` });
}

/**
 * A thread the writer started and handed to the editor, then to `ghost` (a slug the owner has no
 * profile for; the stranger has one), with replies that record their writer and some that don't.
 */
async function handedOverThread(): Promise<string> {
  const db = getDb();
  const threadId = randomUUID();
  await db
    .insert(threads)
    .values({ id: threadId, userId: owner.id, model: OFFLINE_MODEL_ID, profile: "editor" });
  const sessionRows = await db
    .insert(sessions)
    .values([
      { threadId, number: 1, model: OFFLINE_MODEL_ID, profile: "writer", trigger: "initial" },
      { threadId, number: 2, model: OFFLINE_MODEL_ID, profile: "editor", trigger: "agent_handoff" },
      { threadId, number: 3, model: OFFLINE_MODEL_ID, profile: "ghost", trigger: "agent_handoff" },
    ])
    .returning({ id: sessions.id, number: sessions.number });
  const sessionId = (number: number) => sessionRows.find((s) => s.number === number)?.id ?? "";
  const row = (seq: number, session: number, role: "user" | "assistant", agent?: string) => ({
    threadId,
    id: `m${seq}`,
    sessionId: sessionId(session),
    seq,
    role,
    parts: [{ type: "text", text: `message ${seq}` }],
    agent: agent ?? null,
  });
  await db
    .insert(messages)
    .values([
      row(1, 1, "user"),
      row(2, 1, "assistant"),
      row(3, 1, "assistant", "editor"),
      row(4, 2, "user"),
      row(5, 2, "assistant"),
      row(6, 3, "assistant"),
      row(7, 3, "assistant", "default"),
    ]);
  await db.update(threads).set({ nextSeq: 8 }).where(eq(threads.id, threadId));
  return threadId;
}

beforeAll(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  owner = await createActor();
  stranger = await createActor();
  await addProfile(owner.id, "writer", "Writer");
  await addProfile(owner.id, "editor", "Editor");
  // The same slugs under another owner must never name the owner's agents.
  await addProfile(stranger.id, "writer", "Someone else's writer");
  await addProfile(stranger.id, "ghost", "Someone else's ghost");
});

describe("agent names in the thread view", () => {
  it("names sessions and replies from the owner's profiles, a reply by its session's agent", async () => {
    const threadId = await handedOverThread();
    const view = await loadThreadView({ userId: owner.id, threadId, limit: 50 });
    expect(view?.sessions.map((s) => [s.number, s.agent])).toEqual([
      [1, { id: "writer", name: "Writer" }],
      [2, { id: "editor", name: "Editor" }],
      // No profile of the owner's: the slug, never the stranger's name for it.
      [3, { id: "ghost", name: "ghost" }],
    ]);
    expect(view?.messages.map((m) => [m.id, m.metadata?.agent?.name ?? null])).toEqual([
      ["m1", null],
      ["m2", "Writer"],
      ["m3", "Editor"],
      ["m4", null],
      ["m5", "Editor"],
      ["m6", "ghost"],
      ["m7", "Default"],
    ]);
  });

  it("reads the names in one query per page, whatever the page holds", async () => {
    const threadId = await handedOverThread();
    const newest = await recordingQueries(() =>
      loadThreadView({ userId: owner.id, threadId, limit: 50, withContext: false }),
    );
    expect(newest.result?.messages).toHaveLength(7);
    expect(profileQueries(newest.sql)).toHaveLength(1);
    const older = await recordingQueries(() =>
      loadThreadView({ userId: owner.id, threadId, beforeSeq: 4, limit: 2, withContext: false }),
    );
    expect(older.result?.messages.map((m) => m.id)).toEqual(["m2", "m3"]);
    expect(profileQueries(older.sql)).toHaveLength(1);
  });

  it("asks nothing of the profiles for a thread only the built-in Default ran", async () => {
    const threadId = randomUUID();
    const db = getDb();
    await db.insert(threads).values({ id: threadId, userId: owner.id, model: OFFLINE_MODEL_ID });
    const [session] = await db
      .insert(sessions)
      .values({ threadId, number: 1, model: OFFLINE_MODEL_ID })
      .returning({ id: sessions.id });
    await db.insert(messages).values({
      threadId,
      id: "a1",
      sessionId: session?.id ?? "",
      seq: 1,
      role: "assistant",
      parts: [{ type: "text", text: "hello" }],
    });
    const { result, sql } = await recordingQueries(() =>
      loadThreadView({ userId: owner.id, threadId, withContext: false }),
    );
    expect(result?.sessions[0]?.agent).toEqual({ id: "default", name: "Default" });
    expect(result?.messages[0]?.metadata?.agent).toEqual({ id: "default", name: "Default" });
    expect(profileQueries(sql)).toEqual([]);
  });

  it("shows a visitor the same names under stand-ins for the owner's slugs", async () => {
    const threadId = await handedOverThread();
    const { token } = await createShareLink({ userId: owner.id, threadId });
    const page = await loadSharedThreadView({ token, limit: 50 });
    const names = page?.sessions.map((s) => s.agent?.name);
    // The agent with no profile row goes by its slug for the owner; a visitor sees no slug.
    expect(names).toEqual(["Writer", "Editor", "Agent"]);
    const json = JSON.stringify(page);
    for (const slug of ["writer", "editor", "ghost"]) expect(json).not.toContain(`"${slug}"`);
    const ids = page?.sessions.map((s) => s.agent?.id) ?? [];
    expect(new Set(ids).size).toBe(3);
    // A reply names the same stand-in as its session; Default keeps its own id.
    const byId = new Map(page?.messages.map((m) => [m.metadata?.seq, m.metadata?.agent]));
    expect(byId.get(5)).toEqual(page?.sessions[1]?.agent);
    expect(byId.get(7)).toEqual({ id: "default", name: "Default" });
  });
});
