// The thread API's page reads over HTTP against the standalone build (`node e2e/build.mjs`
// first), on threads of 1,000 / 10,000 / 100,000 messages (8 sessions each, seeded by
// scripts/seed-long-thread.ts into a fresh store before its server starts): the newest page, an
// older page from the middle of the thread, and a session's first page read forward, 50
// messages each, timed from sending the GET to the end of its JSON body.
//
// Run: npx tsx --conditions=react-server bench/pages.bench.ts
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx --conditions=react-server bench/pages.bench.ts
// BENCH_SIZES (default 1000,10000,100000), BENCH_SAMPLES (default 50) reads per row,
// BENCH_PORT (default 3130) for the server.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { freshStore, startServer } from "@/e2e/support/server-process";
import { signInCookie } from "./http";
import { ms, percentile, table } from "./support";

const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 50);
const PORT = Number(process.env.BENCH_PORT ?? 3130);
const SESSIONS = 8;
const LIMIT = 50;

interface Seed {
  email: string;
  password: string;
  threadId: string;
}

function seedInto(env: Record<string, string>, size: number): Seed {
  const out = path.join(env.BATON_DATA_DIR ?? ".", "seed.json");
  const args = ["--messages", String(size), "--sessions", String(SESSIONS), "--out", out];
  const result = spawnSync(
    "npx",
    ["tsx", "--conditions=react-server", "scripts/seed-long-thread.ts", ...args],
    { env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] },
  );
  if (result.status !== 0) throw new Error(`seeding ${size} messages failed`);
  return JSON.parse(readFileSync(out, "utf8")) as Seed;
}

async function timedGet(url: string, cookie: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  const body = (await res.json()) as { messages?: unknown[] };
  const elapsed = performance.now() - start;
  if (res.status !== 200 || body.messages?.length !== LIMIT) {
    throw new Error(`${url} answered ${res.status} with ${body.messages?.length} messages`);
  }
  return elapsed;
}

const rows: (string | number)[][] = [];
const medians = new Map<string, Map<number, number>>();
let engine = "PGlite";
for (const size of SIZES) {
  const store = await freshStore();
  if (store.databaseUrl) engine = "Postgres";
  const seed = seedInto(store.env, size);
  const server = await startServer({
    port: PORT,
    env: { ...store.env, BATON_LOCAL_DELAY_MS: "0", BATON_LOG_LEVEL: "warn" },
  });
  try {
    const cookie = await signInCookie(server.url, seed.email, seed.password);
    const thread = `${server.url}/api/threads/${seed.threadId}`;
    const perSession = Math.ceil(size / SESSIONS);
    const pages = [
      { name: "newest page", url: `${thread}?limit=${LIMIT}` },
      { name: "older page (middle)", url: `${thread}?beforeSeq=${size / 2}&limit=${LIMIT}` },
      {
        name: "session 5, read forward",
        url: `${thread}?fromSeq=${4 * perSession + 1}&limit=${LIMIT}`,
      },
    ];
    for (const page of pages) for (let i = 0; i < 5; i++) await timedGet(page.url, cookie);
    for (const page of pages) {
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES; i++) samples.push(await timedGet(page.url, cookie));
      const median = percentile(samples, 50);
      const byPage = medians.get(page.name) ?? new Map<number, number>();
      byPage.set(size, median);
      medians.set(page.name, byPage);
      rows.push([
        engine,
        size.toLocaleString("en"),
        page.name,
        SAMPLES,
        ms(median),
        ms(percentile(samples, 95)),
      ]);
    }
  } finally {
    await server.stop();
    await store.dispose();
  }
}

console.log(table(["database", "messages", "page", "n", "median", "p95"], rows));
const [smallest] = SIZES;
const largest = SIZES.at(-1);
if (smallest !== undefined && largest !== undefined && smallest !== largest) {
  for (const [name, bySize] of medians) {
    const ratio = (bySize.get(largest) ?? Number.NaN) / (bySize.get(smallest) ?? Number.NaN);
    console.log(`${name}: ${largest} / ${smallest} median ratio ${ratio.toFixed(2)}`);
  }
}
