// Handoff API latency (issue 5) through the real route handlers with a bearer token: upsert
// (new key, next revision, duplicate retry) and get (current, history) medians and p99, and the
// list's first and a deep keyset page over 100,000 handoffs bulk-inserted with SQL.
// Run: npx tsx bench/handoffs.bench.ts   (DATABASE_URL=… for Postgres; BENCH_HANDOFFS=… rows)
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

// `server-only` resolves to its empty build only under the react-server condition (as in Next).
if (!process.execArgv.some((a) => a.includes("react-server"))) {
  const run = spawnSync(
    process.execPath,
    [...process.execArgv, "--conditions=react-server", fileURLToPath(import.meta.url)],
    { stdio: "inherit", env: process.env },
  );
  process.exit(run.status ?? 1);
}

// Thousands of requests a minute on one token: past the API's default rate limit, so raise it.
process.env.BATON_RATE_LIMIT_API ??= "1000000/60s";

const { sql } = await import("drizzle-orm");
const { GET: getOne } = await import("@/app/api/handoffs/[key]/route");
const { GET: listRoute, POST: upsertRoute } = await import("@/app/api/handoffs/route");
const { rowsOf } = await import("@/db/client");
const { users } = await import("@/db/schema");
const { handoffArtifactSchema } = await import("@/lib/handoff/artifact");
const { renderHandoffMarkdown } = await import("@/lib/handoff/markdown");
const { encodeCursor } = await import("@/lib/handoff-api/handoffs");
const { createApiToken } = await import("@/lib/handoff-api/api-tokens");
const { ms, openScratchDatabase, percentile, table } = await import("./support");

const ROWS = Number(process.env.BENCH_HANDOFFS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const LIST_SAMPLES = Number(process.env.BENCH_LIST_SAMPLES ?? 50);
const BASE = "http://localhost:3000";

const scratch = await openScratchDatabase("handoffs");
const db = scratch.handle.db;
const userId = randomUUID();
await db.insert(users).values({ id: userId, name: "bench", email: `${userId}@bench.test` });
const { token } = await createApiToken({
  actor: { id: userId, isAnonymous: false, email: null, name: "bench" },
  name: "bench",
  scopes: ["read", "write", "groom"],
});
const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };

// ── Setup: ROWS handoffs (each with its revision 1) in two INSERT … SELECT statements ──
const artifact = handoffArtifactSchema.parse({
  goal: "Move invoices to the new queue",
  state_summary: "Consumer written, backfill pending",
  remaining_tasks: [{ id: "t1", task: "Backfill March" }],
  confirmed_facts: ["the queue keeps 7 days"],
});
const setupStart = performance.now();
await db.execute(sql`
  insert into handoffs (owner_id, handoff_key, project, repo, kind, created_by, revision,
    content_id, artifact, markdown, state, created_at, updated_at)
  select ${userId}, 'bulk-' || i, 'project-' || (i % 10), 'acme/repo-' || (i % 3), 'task',
    'user:' || ${userId}, 1, md5(i::text) || md5((-i)::text), ${JSON.stringify(artifact)}::jsonb,
    ${renderHandoffMarkdown(artifact)}, 'prepared',
    now() - i * interval '1 second', now() - i * interval '1 second'
  from generate_series(1, ${ROWS}) as i`);
await db.execute(sql`
  insert into handoff_revisions (handoff_id, revision, content_id, artifact, markdown, state,
    created_by, created_at)
  select id, revision, content_id, artifact, markdown, state, created_by, created_at
  from handoffs where owner_id = ${userId}`);
await db.execute(sql`analyze`);
const setupMs = performance.now() - setupStart;

async function timed(samples: number, run: (i: number) => Promise<Response>, expect: number[]) {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    const response = await run(i);
    await response.arrayBuffer();
    times.push(performance.now() - start);
    if (!expect.includes(response.status)) {
      throw new Error(`unexpected status ${response.status} at sample ${i}`);
    }
  }
  return times;
}

const post = (body: unknown) =>
  upsertRoute(
    new Request(`${BASE}/api/handoffs`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify(body),
    }),
  );
const get = (key: string, query = "") =>
  getOne(new Request(`${BASE}/api/handoffs/${key}${query}`, { headers: auth }), {
    params: Promise.resolve({ key }),
  });
const list = (query: string) =>
  listRoute(new Request(`${BASE}/api/handoffs?${query}`, { headers: auth }));
const packet = (key: string, i: number, revision?: number) => ({
  key,
  ...(revision === undefined ? {} : { revision }),
  artifact: { ...artifact, state_summary: `Step ${i} done`, next_step: `Step ${i + 1}` },
});

// Warm-up: first-use costs (auth, JIT, plan caches) are not what a running server pays.
for (let i = 0; i < 20; i++) await (await post(packet(`warm-${i}`, i))).arrayBuffer();

const results: [string, number[]][] = [];
results.push([
  "upsert, new key (201)",
  await timed(SAMPLES, (i) => post(packet(`new-${i}`, i)), [201]),
]);
results.push([
  "upsert, next revision of an existing key (201)",
  await timed(SAMPLES, (i) => post(packet(`bulk-${i + 1}`, i, 2)), [201]),
]);
results.push([
  "upsert, duplicate retry (200)",
  await timed(SAMPLES, (i) => post(packet(`bulk-${i + 1}`, i, 2)), [200]),
]);
results.push([
  "get, current",
  await timed(SAMPLES, (i) => get(`bulk-${((i * 7919) % ROWS) + 1}`), [200]),
]);
results.push([
  "get, ?revision=1 (history)",
  await timed(SAMPLES, (i) => get(`bulk-${i + 1}`, "?revision=1"), [200]),
]);

const [total] = rowsOf<{ n: number }>(
  await db.execute(sql`select count(*)::int as n from handoffs where owner_id = ${userId}`),
);
const deepOffset = (total?.n ?? ROWS) - 20;
const [deep] = rowsOf<{ t: string; id: string }>(
  await db.execute(sql`
    select to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as t, id
    from handoffs where owner_id = ${userId}
    order by updated_at desc, id desc offset ${deepOffset - 1} limit 1`),
);
if (!deep) throw new Error("no deep cursor row");
const deepCursor = encodeCursor({ updatedAt: deep.t, id: deep.id });

results.push([
  "list, first page (limit 20)",
  await timed(LIST_SAMPLES, () => list("limit=20"), [200]),
]);
results.push([
  `list, deep page (limit 20 after ${deepOffset.toLocaleString("en")} rows)`,
  await timed(LIST_SAMPLES, () => list(`limit=20&cursor=${deepCursor}`), [200]),
]);
results.push([
  "list, first page of one project (limit 20)",
  await timed(LIST_SAMPLES, () => list("limit=20&project=project-3"), [200]),
]);
results.push([
  "list, first open page (state=prepared, limit 20)",
  await timed(LIST_SAMPLES, () => list("limit=20&state=prepared"), [200]),
]);

console.log(
  `\n### Handoff API on ${scratch.kind} — ${(total?.n ?? 0).toLocaleString("en")} handoffs ` +
    `(setup ${(setupMs / 1000).toFixed(1)} s), through the route handlers with a bearer token\n`,
);
console.log(
  table(
    ["operation", "n", "median", "p99"],
    results.map(([name, times]) => [
      name,
      times.length,
      ms(percentile(times, 50)),
      ms(percentile(times, 99)),
    ]),
  ),
);
await scratch.dispose();
