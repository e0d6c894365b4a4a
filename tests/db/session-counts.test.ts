// sessions.message_count and sessions.first_seq, kept by triggers on messages: after every kind
// of write they equal what counting the session's messages gives, and the migration's backfill
// fills rows that existed before the columns did.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { deleteSessionMessagesAfter } from "@/db/queries/messages";
import { moveMessagesToSession } from "@/db/queries/resets";
import { listSessions } from "@/db/queries/sessions";
import { deleteThread } from "@/db/queries/threads";
import { messages, sessions, threads } from "@/db/schema";
import type { Actor } from "@/lib/auth/server";
import { resetThreadManually } from "@/lib/runs/reset-requests";
import { createActor, sendTurn } from "../support/chat";

let actor: Actor;

beforeAll(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  actor = await createActor();
});

interface Counts {
  number: number;
  messageCount: number;
  firstSeq: number | null;
}

/** What the triggers kept, per session of the thread, in session order. */
async function keptCounts(threadId: string): Promise<Counts[]> {
  const rows = await listSessions({ userId: actor.id, threadId });
  return rows.map((s) => ({
    number: s.number,
    messageCount: s.messageCount,
    firstSeq: s.firstSeq,
  }));
}

/** The same figures counted from the messages themselves. */
async function countedCounts(threadId: string): Promise<Counts[]> {
  const rows = rowsOf<{ number: number; n: number; m: number | null }>(
    await getDb().execute(sql`
      select s.number, count(m.seq)::int as n, min(m.seq) as m
      from ${sessions} s left join ${messages} m on m.session_id = s.id
      where s.thread_id = ${threadId}
      group by s.number order by s.number`),
  );
  return rows.map((r) => ({
    number: Number(r.number),
    messageCount: Number(r.n),
    firstSeq: r.m === null ? null : Number(r.m),
  }));
}

async function expectCountsRight(threadId: string): Promise<Counts[]> {
  const kept = await keptCounts(threadId);
  expect(kept).toEqual(await countedCounts(threadId));
  return kept;
}

/** A thread with `sessionCount` empty sessions, inserted directly. */
async function emptyThread(sessionCount: number) {
  const threadId = randomUUID();
  await getDb()
    .insert(threads)
    .values({ id: threadId, userId: actor.id, title: "counts", model: "baton/local" });
  const rows = await getDb()
    .insert(sessions)
    .values(
      Array.from({ length: sessionCount }, (_, i) => ({
        threadId,
        number: i + 1,
        model: "baton/local",
        trigger: i === 0 ? ("initial" as const) : ("manual" as const),
      })),
    )
    .returning({ id: sessions.id });
  return { threadId, sessionIds: rows.map((r) => r.id) };
}

function messageRows(threadId: string, sessionId: string, fromSeq: number, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    threadId,
    id: `m-${fromSeq + i}`,
    sessionId,
    seq: fromSeq + i,
    role: (i % 2 === 0 ? "user" : "assistant") as "user" | "assistant",
    parts: [{ type: "text", text: `message ${fromSeq + i}` }],
  }));
}

describe("per-session message counts", () => {
  it("follow real chat turns, a reset, and an edit that drops later messages", async () => {
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "hello there");
    await sendTurn(actor, threadId, "and a second question");
    expect(await expectCountsRight(threadId)).toEqual([
      { number: 1, messageCount: 4, firstSeq: 1 },
    ]);

    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    await sendTurn(actor, threadId, "a question in the new session");
    const afterReset = await expectCountsRight(threadId);
    expect(afterReset.map((s) => s.number)).toEqual([1, 2]);
    expect(afterReset[1]?.messageCount).toBeGreaterThanOrEqual(2);

    // The reset's new session takes over the last two messages of the first (as a queued
    // message that raced the commit is moved): both sessions change, in one statement.
    const [first, second] = await listSessions({ userId: actor.id, threadId });
    if (!first || !second) throw new Error("two sessions expected");
    const lastTwo = await getDb()
      .select({ id: messages.id })
      .from(messages)
      .where(eq(messages.sessionId, first.id))
      .orderBy(sql`${messages.seq} desc`)
      .limit(2);
    await moveMessagesToSession({
      userId: actor.id,
      threadId,
      ids: lastTwo.map((m) => m.id),
      sessionId: second.id,
    });
    const moved = await expectCountsRight(threadId);
    expect(moved[0]?.messageCount).toBe(2);
    expect(moved[1]?.firstSeq).toBe(3);

    // Edit-and-resend of the session's first message drops everything after it.
    const deleted = await deleteSessionMessagesAfter({
      userId: actor.id,
      threadId,
      sessionId: second.id,
      seq: 3,
    });
    expect(deleted).toBeGreaterThan(0);
    expect((await expectCountsRight(threadId))[1]).toEqual({
      number: 2,
      messageCount: 1,
      firstSeq: 3,
    });
  });

  it("follow a bulk insert of many rows across sessions in one statement, and moves of many", async () => {
    const { threadId, sessionIds } = await emptyThread(3);
    const [a, b, c] = sessionIds as [string, string, string];
    await getDb()
      .insert(messages)
      .values([
        ...messageRows(threadId, a, 1, 1500),
        ...messageRows(threadId, b, 1501, 700),
        ...messageRows(threadId, c, 2301, 3),
      ]);
    expect(await expectCountsRight(threadId)).toEqual([
      { number: 1, messageCount: 1500, firstSeq: 1 },
      { number: 2, messageCount: 700, firstSeq: 1501 },
      { number: 3, messageCount: 3, firstSeq: 2301 },
    ]);
    // A second insert into a session that already has rows, with lower seqs than its first.
    await getDb()
      .insert(messages)
      .values(messageRows(threadId, c, 2250, 5).map((m) => ({ ...m, id: `late-${m.seq}` })));
    expect((await expectCountsRight(threadId))[2]).toEqual({
      number: 3,
      messageCount: 8,
      firstSeq: 2250,
    });
    // The oldest 200 rows of the first session move to the last one in one statement.
    await getDb()
      .update(messages)
      .set({ sessionId: c })
      .where(sql`${messages.sessionId} = ${a} and ${messages.seq} <= 200`);
    expect(await expectCountsRight(threadId)).toEqual([
      { number: 1, messageCount: 1300, firstSeq: 201 },
      { number: 2, messageCount: 700, firstSeq: 1501 },
      { number: 3, messageCount: 208, firstSeq: 1 },
    ]);
    // Emptying a session leaves it at zero with no first seq.
    await getDb().delete(messages).where(eq(messages.sessionId, b));
    expect((await expectCountsRight(threadId))[1]).toEqual({
      number: 2,
      messageCount: 0,
      firstSeq: null,
    });
  });

  it("leave other threads' sessions alone when a thread is deleted", async () => {
    const kept = await emptyThread(2);
    const gone = await emptyThread(2);
    for (const t of [kept, gone]) {
      const [x, y] = t.sessionIds as [string, string];
      await getDb()
        .insert(messages)
        .values([...messageRows(t.threadId, x, 1, 40), ...messageRows(t.threadId, y, 41, 10)]);
    }
    expect(await deleteThread({ userId: actor.id, threadId: gone.threadId })).toBe(true);
    const left = await getDb()
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.threadId, gone.threadId));
    expect(left).toEqual([]);
    expect(await expectCountsRight(kept.threadId)).toEqual([
      { number: 1, messageCount: 40, firstSeq: 1 },
      { number: 2, messageCount: 10, firstSeq: 41 },
    ]);
  });

  it("are filled for existing rows by the migration's backfill", async () => {
    const { threadId, sessionIds } = await emptyThread(3);
    const [a, b] = sessionIds as [string, string, string];
    await getDb()
      .insert(messages)
      .values([...messageRows(threadId, a, 1, 25), ...messageRows(threadId, b, 26, 9)]);
    // As before the migration: the columns hold their defaults.
    await getDb()
      .update(sessions)
      .set({ messageCount: 0, firstSeq: null })
      .where(eq(sessions.threadId, threadId));
    expect((await keptCounts(threadId)).map((s) => s.messageCount)).toEqual([0, 0, 0]);

    await getDb().execute(sql.raw(backfillStatement()));
    expect(await expectCountsRight(threadId)).toEqual([
      { number: 1, messageCount: 25, firstSeq: 1 },
      { number: 2, messageCount: 9, firstSeq: 26 },
      { number: 3, messageCount: 0, firstSeq: null },
    ]);
  });
});

/** The migration's last statement: the one-off fill of the counts from existing messages. */
function backfillStatement(): string {
  const file = path.resolve("db/migrations/0015_connections_and_counts.sql");
  const statements = readFileSync(file, "utf8").split("--> statement-breakpoint");
  const last = statements.at(-1)?.trim() ?? "";
  if (!/^UPDATE sessions/i.test(last)) throw new Error(`unexpected last statement: ${last}`);
  return last;
}
