// Reading a page of a thread costs the same whatever the thread's length: the thread API sends as
// many SQL statements for a page of a 10,000-message thread as for one of 100 messages, and none
// of them reads the messages table from end to end.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { sessions, threads } from "@/db/schema";
import { getAuth } from "@/lib/auth/server";
import { settleRecoveries } from "@/lib/runs/recovery-registry";
import { guestHeaders } from "../support/auth";
import { callRoute, routeAt } from "../support/route-call";
import { explain, recordStatements, type Statement } from "../support/statement-log";

const SESSIONS = 4;
let headers: Headers;
let userId: string;
const threadRoute = routeAt("/api/threads/[id]");

/**
 * A thread of `total` messages over four sessions, in one INSERT … SELECT. Each session has a
 * reported model call at its last message, as every answered turn records one.
 */
async function seedThread(total: number): Promise<string> {
  const threadId = randomUUID();
  const db = getDb();
  await db
    .insert(threads)
    .values({ id: threadId, userId, title: "long", model: "baton/local", nextSeq: total + 1 });
  const perSession = Math.ceil(total / SESSIONS);
  await db.insert(sessions).values(
    Array.from({ length: SESSIONS }, (_, i) => ({
      threadId,
      number: i + 1,
      model: "baton/local",
      trigger: i === 0 ? ("initial" as const) : ("threshold" as const),
      endedAt: i < SESSIONS - 1 ? new Date() : null,
      lastInputTokens: 900,
      lastInputSeq: Math.min(total, (i + 1) * perSession),
    })),
  );
  await db.execute(sql`
    insert into messages (thread_id, id, session_id, seq, role, parts, status, model, token_count)
    select ${threadId}, 'seed-' || g, s.id, g,
      case when g % 2 = 1 then 'user' else 'assistant' end,
      jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'Message ' || g)),
      'complete', case when g % 2 = 1 then null else 'baton/local' end, 20
    from generate_series(1, ${total}::int) g
    join sessions s on s.thread_id = ${threadId} and s.number = (g - 1) / ${perSession}::int + 1`);
  return threadId;
}

async function getPage(threadId: string, query: string) {
  return recordStatements(async () => {
    const response = await callRoute(
      threadRoute,
      "GET",
      `http://localhost:3000/api/threads/${threadId}${query}`,
      { headers, params: { id: threadId } },
    );
    const body = (await response.json()) as { messages: { metadata: { seq: number } }[] };
    // Opening the newest page starts the thread's recovery: its statements count too.
    await settleRecoveries();
    return { status: response.status, seqs: body.messages.map((m) => m.metadata.seq) };
  });
}

const touchesMessages = (s: Statement) => /\b"?messages"?\b/i.test(s.query);

let short: string;
let long: string;

beforeAll(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  headers = await guestHeaders();
  const session = await getAuth().api.getSession({ headers });
  if (!session) throw new Error("no guest session");
  userId = session.user.id;
  short = await seedThread(100);
  long = await seedThread(10_000);
  await getDb().execute(sql`analyze`);
});

// Each page kind with, for both threads, where it starts.
const pages = [
  { name: "the newest page", query: () => "", first: (n: number) => n - 49 },
  {
    name: "an older page",
    query: (n: number) => `?beforeSeq=${n - 60}`,
    first: (n: number) => Math.max(1, n - 110),
  },
  {
    name: "a session's first page, read forward",
    query: (n: number) => `?fromSeq=${n / 2 + 1}`,
    first: (n: number) => n / 2 + 1,
  },
];

describe("a page of a thread", () => {
  for (const page of pages) {
    it(`${page.name}: as many statements at 10,000 messages as at 100, none scanning messages`, async () => {
      const limit = "limit=50";
      const withLimit = (q: string) => (q ? `${q}&${limit}` : `?${limit}`);
      // A first read warms the caches (the agent, the tool definitions) for both threads.
      await getPage(short, withLimit(page.query(100)));
      const small = await getPage(short, withLimit(page.query(100)));
      const large = await getPage(long, withLimit(page.query(10_000)));

      expect(small.result.status).toBe(200);
      expect(large.result.status).toBe(200);
      expect(small.result.seqs[0]).toBe(page.first(100));
      expect(large.result.seqs[0]).toBe(page.first(10_000));
      expect(large.result.seqs).toHaveLength(50);
      expect(large.statements.length).toBe(small.statements.length);

      const reads = large.statements.filter(touchesMessages);
      expect(reads.length).toBeGreaterThan(0);
      for (const statement of reads) {
        const plan = await explain(statement);
        expect(plan, `${statement.query}\n${plan}`).not.toMatch(/Seq Scan on messages/);
      }
    });
  }
});
