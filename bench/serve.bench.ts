// Serving costs (issue 2): production build time, cold start to the first served page on a
// fresh data folder, and time to the first streamed byte of POST /api/chat (median of 20).
// Run: npx tsx bench/serve.bench.ts            (DATABASE_URL=… to serve from Postgres)
//      BENCH_SKIP_BUILD=1 reuses the last build in .next-bench.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { ms, percentile, table } from "./support";

const PORT = Number(process.env.BENCH_PORT ?? 3900);
const base = `http://127.0.0.1:${PORT}`;
const env = { ...process.env, NEXT_DIST_DIR: ".next-bench", NEXT_TELEMETRY_DISABLED: "1" };

function build(): number | null {
  if (process.env.BENCH_SKIP_BUILD) return null;
  const start = performance.now();
  const result = spawnSync("npx", ["next", "build"], { env, stdio: "ignore" });
  if (result.status !== 0) throw new Error("next build failed");
  return performance.now() - start;
}

async function waitFor(url: string, start: number, server: ChildProcess): Promise<number> {
  for (;;) {
    if (server.exitCode !== null) throw new Error("server exited");
    try {
      const res = await fetch(url);
      if (res.ok) return performance.now() - start;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function firstByte(cookie: string, threadId: string, text: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${base}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: base },
    body: JSON.stringify({
      id: threadId,
      trigger: "submit-message",
      message: { id: randomUUID(), role: "user", parts: [{ type: "text", text }] },
    }),
  });
  const reader = res.body?.getReader();
  if (!reader) throw new Error("no body");
  await reader.read();
  const elapsed = performance.now() - start;
  while (!(await reader.read()).done) {
    // drain so the reply is stored before the next request
  }
  return elapsed;
}

const buildMs = build();
const dataDir = path.resolve(".data", `bench-serve-${process.pid}`);
rmSync(dataDir, { recursive: true, force: true });
const started = performance.now();
const server = spawn("npx", ["next", "start", "-p", String(PORT), "-H", "127.0.0.1"], {
  env: { ...env, BATON_DATA_DIR: dataDir, BATON_LOCAL_DELAY_MS: "15" },
  stdio: "ignore",
  detached: true,
});
try {
  const coldStart = await waitFor(`${base}/`, started, server);
  const signIn = await fetch(`${base}/api/auth/sign-in/anonymous`, {
    method: "POST",
    headers: { origin: base, "content-type": "application/json" },
    body: "{}",
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const threadId = randomUUID();
  await firstByte(cookie, threadId, "warm up"); // first request compiles nothing, but warms caches
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) samples.push(await firstByte(cookie, threadId, `message ${i}`));
  const db = process.env.DATABASE_URL ? "postgres" : "pglite";
  console.log(`\n### Serving on ${db} (${new Date().toISOString().slice(0, 10)})\n`);
  console.log(
    table(
      ["measure", "value"],
      [
        [
          "production build (`next build`)",
          buildMs === null ? "skipped" : `${(buildMs / 1000).toFixed(1)} s`,
        ],
        [
          "cold start → first served page (fresh data folder)",
          `${(coldStart / 1000).toFixed(2)} s`,
        ],
        ["POST /api/chat time to first streamed byte, median of 20", ms(percentile(samples, 50))],
        ["POST /api/chat time to first streamed byte, p95 of 20", ms(percentile(samples, 95))],
      ],
    ),
  );
} finally {
  if (server.pid) process.kill(-server.pid, "SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
}
