// Live streams: how long a resumed reply takes to start, and what recording a reply costs.
//
// 1. Resume latency, over HTTP against the standalone build (`node e2e/build.mjs` first): a guest
//    sends a message, and once the first text delta has arrived a GET /api/chat/{id}/stream is
//    sent; the figure is from sending that GET to the first chunk of its body (what a reloaded
//    page waits for before the reply starts growing again). Without DATABASE_URL: one server on
//    PGlite with the in-process bus. With DATABASE_URL: two servers on one Postgres database and
//    Redis (REDIS_URL, default redis://127.0.0.1:6379), resumed on the producing server and on
//    the other one.
// 2. Recording cost per streamed chunk, in this process: the SSE copy a run drains
//    (`consumeSseStream` in lib/runs/loop.ts) drained plainly (`consumeStream`) or recorded
//    (`recordStream`, the resumable-stream wrapper), on the in-process bus and on Redis.
//
// Run: npx tsx --conditions=react-server bench/resume.bench.ts
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx --conditions=react-server bench/resume.bench.ts
// BENCH_SAMPLES (default 25) resumes per row; BENCH_CHUNKS (default 20000) chunks per stream.
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { consumeStream } from "ai";
import {
  freshStore,
  type ServerProcess,
  type ServerStore,
  startServer,
} from "@/e2e/support/server-process";
import { recordStream } from "@/lib/streams/record";
import { drain, FIRST_TEXT_DELTA, guestCookie, readUntil } from "./http";
import { ms, percentile, table } from "./support";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 25);
const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 20_000);
const ROUNDS = 7;
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const SECRET = "resume-bench-secret-0123456789abcdef0123";
const PROMPT =
  "Tell me about the careful engineers who test every stop button and every reload in the chat apps they build";

interface Guest {
  cookie: string;
}

const guest = async (base: string): Promise<Guest> => ({ cookie: await guestCookie(base) });

/** One resume: a reply started on `producer`, followed mid-way from `follower`. */
async function resumeOnce(producer: string, follower: string, who: Guest): Promise<number> {
  const threadId = randomUUID();
  const post = await fetch(`${producer}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: who.cookie, origin: producer },
    body: JSON.stringify({
      id: threadId,
      trigger: "submit-message",
      message: { id: randomUUID(), role: "user", parts: [{ type: "text", text: PROMPT }] },
    }),
  });
  const { reader: original } = await readUntil(post, FIRST_TEXT_DELTA);
  const start = performance.now();
  const resumed = await fetch(`${follower}/api/chat/${threadId}/stream`, {
    headers: { cookie: who.cookie },
  });
  if (resumed.status !== 200) throw new Error(`resume answered ${resumed.status}`);
  const reader = resumed.body?.getReader();
  if (!reader) throw new Error("resume: no body");
  const first = await reader.read();
  const elapsed = performance.now() - start;
  if (first.done) throw new Error("resume: empty stream");
  await Promise.all([drain(reader), drain(original)]);
  return elapsed;
}

async function resumeRows(): Promise<(string | number)[][]> {
  const store: ServerStore = await freshStore();
  const servers: ServerProcess[] = [];
  const extraDirs: string[] = [];
  try {
    const common = {
      ...store.env,
      BATON_LOCAL_DELAY_MS: "40",
      BATON_LOG_LEVEL: "warn",
    };
    const rows: (string | number)[][] = [];
    if (!store.databaseUrl) {
      const server = await startServer({ env: { ...common, REDIS_URL: "" } });
      servers.push(server);
      const who = await guest(server.url);
      await resumeOnce(server.url, server.url, who); // warm-up
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES; i++) samples.push(await resumeOnce(server.url, server.url, who));
      rows.push(row("PGlite, in-process bus", "same server", samples));
      return rows;
    }
    const shared = { ...common, REDIS_URL, BETTER_AUTH_SECRET: SECRET };
    const a = await startServer({ env: shared });
    servers.push(a);
    const dirB = `${store.dataDir}-b`;
    mkdirSync(dirB, { recursive: true });
    extraDirs.push(dirB);
    const b = await startServer({ env: { ...shared, BATON_DATA_DIR: dirB } });
    servers.push(b);
    const who = await guest(a.url);
    await resumeOnce(a.url, a.url, who);
    await resumeOnce(a.url, b.url, who);
    const same: number[] = [];
    const other: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      same.push(await resumeOnce(a.url, a.url, who));
      other.push(await resumeOnce(a.url, b.url, who));
    }
    rows.push(row("Postgres + Redis", "same server", same));
    rows.push(row("Postgres + Redis", "other server", other));
    return rows;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await store.dispose();
    for (const dir of extraDirs) rmSync(dir, { recursive: true, force: true });
  }
}

function row(engine: string, where: string, samples: number[]): (string | number)[] {
  return [engine, where, samples.length, ms(percentile(samples, 50)), ms(percentile(samples, 95))];
}

/** A reply's SSE copy: CHUNKS text deltas, produced as fast as they are read. */
function sseCopy(): ReadableStream<string> {
  let sent = 0;
  return new ReadableStream<string>({
    pull(controller) {
      if (sent === 0)
        controller.enqueue(`data: {"type":"start","messageId":"${randomUUID()}"}\n\n`);
      if (sent >= CHUNKS) {
        controller.enqueue('data: {"type":"finish"}\n\n');
        controller.enqueue("data: [DONE]\n\n");
        controller.close();
        return;
      }
      controller.enqueue(`data: {"type":"text-delta","id":"t0","delta":"word${sent} "}\n\n`);
      sent++;
    },
  });
}

async function perChunk(run: (copy: ReadableStream<string>) => Promise<void>): Promise<number[]> {
  const rounds: number[] = [];
  for (let i = 0; i <= ROUNDS; i++) {
    const start = performance.now();
    await run(sseCopy());
    const elapsed = performance.now() - start;
    if (i > 0) rounds.push((elapsed / CHUNKS) * 1000); // µs per chunk; round 0 warms up
  }
  return rounds;
}

const us = (n: number) => `${n.toFixed(2)} µs`;

async function recordingRows(): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [];
  const plain = await perChunk((copy) => consumeStream({ stream: copy }));
  const median = (values: number[]) => percentile(values, 50);
  rows.push(["plain pass-through (`consumeStream`)", ROUNDS, us(median(plain)), "1.00"]);
  for (const [label, url] of [
    ["recorded, in-process bus", ""],
    ["recorded, Redis bus", REDIS_URL],
  ] as const) {
    process.env.REDIS_URL = url;
    const recorded = await perChunk((copy) => recordStream(randomUUID(), copy));
    rows.push([
      `${label} (\`recordStream\`)`,
      ROUNDS,
      us(median(recorded)),
      (median(recorded) / median(plain)).toFixed(2),
    ]);
  }
  return rows;
}

const resume = await resumeRows();
console.log(
  `\nResume latency: GET /api/chat/{id}/stream sent mid-reply → first chunk of its body\n`,
);
console.log(table(["store", "resumed on", "n", "median", "p95"], resume));
const recording = await recordingRows();
console.log(`\nRecording cost per streamed chunk (${CHUNKS} chunks a stream, median of rounds)\n`);
console.log(table(["stream copy drained", "rounds", "per chunk", "× plain"], recording));
process.exit(0);
