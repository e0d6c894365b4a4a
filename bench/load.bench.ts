// Chat turns under load, over HTTP against the standalone build (`node e2e/build.mjs` first):
// 20 / 50 / 100 guests (signed in beforehand) each send one message at the same moment, in
// rounds; the figure is each turn's time from sending POST /api/chat to the first `text-delta`
// event of its SSE body. A turn errs when it answers other than 200 (a 429 included), its stream
// ends without a text delta, or it carries an `error` event. One server, the offline model with
// no delay between words, the e2e rate limits (core/env.ts variables, e2e/support/server-process.ts).
//
// Run: npx tsx --conditions=react-server bench/load.bench.ts
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx --conditions=react-server bench/load.bench.ts
// BENCH_LEVELS (default 20,50,100) concurrent chats, BENCH_ROUNDS (default 3) rounds per level,
// BENCH_PORT (default 3130). Also prints the single-turn figure (one chat at a time, 30 turns).
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { freshStore, startServer } from "@/e2e/support/server-process";
import { FIRST_TEXT_DELTA, guestCookie, postChat, readUntil } from "./http";
import { ms, percentile, table } from "./support";

const LEVELS = (process.env.BENCH_LEVELS ?? "20,50,100").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3130);
const SINGLE = 30;

type Outcome = { ok: true; firstDelta: number } | { ok: false; why: string };

/** One turn on a new thread; the reply is read to its end before the outcome counts. */
async function turn(base: string, cookie: string, text: string): Promise<Outcome> {
  const start = performance.now();
  try {
    const res = await postChat(base, cookie, randomUUID(), text);
    if (res.status !== 200) {
      await res.body?.cancel();
      return { ok: false, why: `status ${res.status}` };
    }
    const first = await readUntil(res, FIRST_TEXT_DELTA);
    const firstDelta = performance.now() - start;
    let tail = first.text;
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await first.reader.read();
      if (done) break;
      tail += decoder.decode(value, { stream: true });
    }
    if (!first.matched) return { ok: false, why: "no text delta" };
    if (tail.includes('"type":"error"')) return { ok: false, why: "error event" };
    return { ok: true, firstDelta };
  } catch (error) {
    // undici's "fetch failed" says nothing: the cause (a reset, a timeout) is what tells.
    const cause =
      error instanceof Error ? (error.cause as { code?: string; message?: string }) : null;
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, why: cause ? `${why} (${cause.code ?? cause.message})` : why };
  }
}

const store = await freshStore();
const engine = store.databaseUrl ? "Postgres" : "PGlite";
const server = await startServer({
  port: PORT,
  env: { ...store.env, BATON_LOCAL_DELAY_MS: "0", BATON_LOG_LEVEL: "warn" },
});
const rows: (string | number)[][] = [];
try {
  const most = Math.max(...LEVELS);
  const cookies: string[] = [];
  for (let i = 0; i < most; i++) cookies.push(await guestCookie(server.url));
  // Warm-up: the first turns compile and cache what every later turn reuses.
  for (const cookie of cookies.slice(0, 3)) await turn(server.url, cookie, "warm up");

  const single: number[] = [];
  let singleErrors = 0;
  for (let i = 0; i < SINGLE; i++) {
    const outcome = await turn(server.url, cookies[i % cookies.length] ?? "", `one at a time ${i}`);
    if (outcome.ok) single.push(outcome.firstDelta);
    else singleErrors++;
  }
  rows.push(row(1, single, singleErrors, SINGLE));

  for (const level of LEVELS) {
    const firsts: number[] = [];
    const errors: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const outcomes = await Promise.all(
        cookies
          .slice(0, level)
          .map((cookie, i) => turn(server.url, cookie, `load ${level} round ${round} chat ${i}`)),
      );
      for (const outcome of outcomes) {
        if (outcome.ok) firsts.push(outcome.firstDelta);
        else errors.push(outcome.why);
      }
    }
    if (errors.length) console.error(`${level} concurrent: ${[...new Set(errors)].join("; ")}`);
    rows.push(row(level, firsts, errors.length, level * ROUNDS));
  }
} finally {
  await server.stop();
  await store.dispose();
}

function row(level: number, firsts: number[], errors: number, turns: number) {
  return [engine, level, turns, ms(percentile(firsts, 50)), ms(percentile(firsts, 99)), errors];
}

console.log(
  table(["database", "concurrent chats", "turns", "p50 first text delta", "p99", "errors"], rows),
);
