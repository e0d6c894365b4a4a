// One chat turn's server path up to its first text delta, in this process (the same runner as
// POST /api/chat, without HTTP): the time from calling the runner to the first `text-delta`
// event of its SSE body, and how many SQL statements were sent before it. A new thread per turn
// (its first message creates it) and turns on three existing threads, alternately; the offline
// model with no delay between words.
//
// Run: npx tsx --conditions=react-server bench/turn.bench.ts   (DATABASE_URL=… for Postgres)
// BENCH_TURNS (default 40) turns of each kind.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { users } from "@/db/schema";
import { runChatTurn } from "@/lib/runs/turn";
import { recordStatements, type Statement } from "@/tests/support/statement-log";
import { FIRST_TEXT_DELTA } from "./http";
import { ms, openScratchDatabase, percentile, table } from "./support";

process.env.BATON_LOCAL_DELAY_MS = "0";
process.env.BATON_LOG_LEVEL = "warn";
const TURNS = Number(process.env.BENCH_TURNS ?? 40);

const scratch = await openScratchDatabase("turn");
const userId = randomUUID();
await scratch.handle.db
  .insert(users)
  .values({ id: userId, name: "bench", email: `${userId}@example.test`, isAnonymous: true });
const actor = { id: userId, isAnonymous: true, email: null, name: "bench" };

/** One turn: ms to the first text delta, and statements sent before it. */
async function turn(threadId: string, text: string) {
  let firstAt = -1;
  let before = 0;
  const sent: Statement[] = [];
  await recordStatements(async () => {
    const start = performance.now();
    const response = await runChatTurn({
      actor,
      request: {
        trigger: "submit-message",
        id: threadId,
        message: { id: randomUUID(), role: "user", parts: [{ type: "text", text }] },
      },
    });
    const reader = response.body?.getReader();
    if (!reader) throw new Error("no body");
    const decoder = new TextDecoder();
    let body = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      body += decoder.decode(value, { stream: true });
      if (firstAt < 0 && FIRST_TEXT_DELTA(body)) {
        firstAt = performance.now() - start;
        before = sent.length;
      }
    }
    if (firstAt < 0) throw new Error(`no text delta in ${body.slice(0, 300)}`);
  }, sent);
  return { firstAt, before };
}

const existing = [randomUUID(), randomUUID(), randomUUID()];
for (const threadId of existing) await turn(threadId, "warm up"); // created, and warm
const fresh: number[] = [];
const again: number[] = [];
const counts = { fresh: 0, again: 0 };
for (let i = 0; i < TURNS; i++) {
  const a = await turn(randomUUID(), `a new thread ${i}`);
  fresh.push(a.firstAt);
  counts.fresh = a.before;
  const b = await turn(existing[i % existing.length] ?? "", `another question ${i}`);
  again.push(b.firstAt);
  counts.again = b.before;
}
// Let background work (titles, recovery) end before the database goes.
await new Promise((resolve) => setTimeout(resolve, 1000));
await scratch.dispose();

const row = (name: string, samples: number[], statements: number) => [
  scratch.kind === "pglite" ? "PGlite" : "Postgres",
  name,
  samples.length,
  ms(percentile(samples, 50)),
  ms(percentile(samples, 99)),
  statements,
];
console.log(
  table(
    ["database", "turn", "n", "median to first text delta", "p99", "statements before it"],
    [
      row("first message (new thread)", fresh, counts.fresh),
      row("existing thread", again, counts.again),
    ],
  ),
);
