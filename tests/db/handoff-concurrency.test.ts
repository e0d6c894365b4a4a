// Concurrency (binding on Postgres, where the requests really overlap; passing on PGlite, where
// one connection serializes them): all requests are built first and released by one gate.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { type Answer, acceptHandoff, artifactOf, upsert, userWithToken } from "./handoff-support";

const N = 50;

function gate(): { open: () => void; wait: Promise<void> } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, wait };
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
});

describe("concurrency", () => {
  it("50 concurrent upserts with distinct revisions: the highest is current, every 2xx is in history, every 409 left no row", async () => {
    const { headers } = await userWithToken();
    const key = "race-upserts";
    const revisions = shuffled(Array.from({ length: N }, (_, i) => i + 1));
    const start = gate();
    const pending = revisions.map(async (revision) => {
      await start.wait;
      const res = await upsert(headers, {
        key,
        revision,
        artifact: artifactOf({ state_summary: `written as revision ${revision}` }),
      });
      return { revision, res };
    });
    start.open();
    const results = await Promise.all(pending);

    const ok = results.filter((r) => r.res.status === 201 || r.res.status === 200);
    const stale = results.filter((r) => r.res.status === 409);
    expect(ok.length + stale.length).toBe(N);
    for (const r of stale) {
      expect((r.res.body.error as { code: string }).code).toBe("conflict:stale_revision");
    }
    // Distinct content per revision: nothing can be a duplicate.
    expect(ok.every((r) => r.res.status === 201)).toBe(true);
    for (const r of ok) expect(r.res.body.revision).toBe(r.revision);

    const history = rowsOf<{ revision: number; state: string; content_id: string }>(
      await getDb().execute(sql`
        select r.revision, r.state, r.content_id from handoff_revisions r
        join handoffs h on h.id = r.handoff_id where h.handoff_key = ${key}
        order by r.revision`),
    );
    const stored = history.map((h) => h.revision);
    expect(stored).toEqual(ok.map((r) => r.revision).sort((a, b) => a - b));
    for (const r of stale) expect(stored).not.toContain(r.revision);
    for (const r of ok) {
      expect(history.find((h) => h.revision === r.revision)?.content_id).toBe(r.res.body.id);
    }
    const [current] = rowsOf<{ revision: number; state: string }>(
      await getDb().execute(sql`select revision, state from handoffs where handoff_key = ${key}`),
    );
    expect(current).toEqual({ revision: N, state: "prepared" });
    expect(history.filter((h) => h.state === "prepared").map((h) => h.revision)).toEqual([N]);
    expect(history.filter((h) => h.state === "superseded")).toHaveLength(history.length - 1);
  });

  it("50 concurrent accepts of one handoff make exactly one receipt and return identical bodies", async () => {
    const { headers } = await userWithToken();
    const key = "race-accepts";
    const stored = await upsert(headers, { key, revision: 1, artifact: artifactOf() });
    const body = { id: stored.body.id, receiver: "agent:racer" };
    const start = gate();
    const pending: Promise<Answer>[] = Array.from({ length: N }, async () => {
      await start.wait;
      return acceptHandoff(headers, key, body);
    });
    start.open();
    const results = await Promise.all(pending);

    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(N - 1);
    const first = results[0]?.body;
    for (const r of results) expect(r.body).toEqual(first);
    expect(first).toMatchObject({ key, id: stored.body.id, receiver: "agent:racer", revision: 1 });
    const [count] = rowsOf<{ n: number }>(
      await getDb().execute(
        sql`select count(*)::int as n from handoff_receipts where content_id = ${String(stored.body.id)}`,
      ),
    );
    expect(count?.n).toBe(1);
  });
});
