// Readiness (/api/ready) against liveness (/api/health): a dependency that is down makes ready
// answer 503 naming it, while health keeps answering 200.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { GET as healthRoute } from "@/app/api/health/route";
import { GET as readyRoute } from "@/app/api/ready/route";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { closeRateLimits } from "@/lib/http/rate-limit";
import packageJson from "@/package.json";

const holder = globalThis as unknown as { batonDb?: DatabaseHandle };
const savedRedis = process.env.REDIS_URL;
const context = { params: Promise.resolve({}) };

async function call(handler: typeof readyRoute, path: string) {
  const response = await handler(new Request(`http://localhost:3000${path}`), context);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const ready = () => call(readyRoute, "/api/ready");
const health = () => call(healthRoute, "/api/health");

/** Runs `work` with the process's database swapped for `handle`, then puts the test's back. */
async function withDatabase(handle: DatabaseHandle, work: () => Promise<void>): Promise<void> {
  const own = holder.batonDb;
  holder.batonDb = handle;
  try {
    await work();
  } finally {
    holder.batonDb = own;
  }
}

afterEach(async () => {
  if (savedRedis === undefined) delete process.env.REDIS_URL;
  else process.env.REDIS_URL = savedRedis;
  await closeRateLimits();
});

describe("GET /api/ready", () => {
  it("answers 200 with each check and the version when everything is fine", async () => {
    delete process.env.REDIS_URL;
    const answer = await ready();
    expect(answer).toEqual({
      status: 200,
      body: {
        status: "ok",
        failing: [],
        version: packageJson.version,
        checks: {
          database: {
            kind: process.env.DATABASE_URL ? "postgres" : "pglite",
            reachable: true,
            migrations: "current",
          },
          redis: { configured: false },
        },
      },
    });
  });

  it("answers 503 naming redis when REDIS_URL points at nothing, while /api/health stays 200", async () => {
    process.env.REDIS_URL = "redis://127.0.0.1:1";
    const answer = await ready();
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({
      status: "unavailable",
      failing: ["redis"],
      checks: { database: { reachable: true }, redis: { configured: true, reachable: false } },
    });
    // Nothing of the connection (its address or the error) is in the answer.
    expect(JSON.stringify(answer.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|redis:\/\//);
    expect(await health()).toMatchObject({ status: 200, body: { status: "ok" } });
  });

  it("answers 200 with redis reachable when REDIS_URL points at a running Redis", async () => {
    process.env.REDIS_URL = "redis://127.0.0.1:6379";
    const answer = await ready();
    expect(answer.body.checks).toMatchObject({ redis: { configured: true, reachable: true } });
    expect(answer.status).toBe(200);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "Postgres: an unmigrated database is not ready, a dropped one is unreachable; /api/health stays 200",
    async () => {
      const name = `baton_ready_${randomBytes(6).toString("hex")}`;
      const admin = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const url = new URL(process.env.DATABASE_URL ?? "");
      url.pathname = `/${name}`;
      const handle = openDatabase({ url: url.toString() });
      try {
        await withDatabase(handle, async () => {
          const fresh = await ready();
          expect(fresh.status).toBe(503);
          expect(fresh.body).toMatchObject({
            failing: ["database"],
            checks: { database: { kind: "postgres", reachable: true, migrations: "behind" } },
          });

          await migrateDatabase(handle, undefined, url.toString());
          expect((await ready()).status).toBe(200);

          // Terminates the handle's open connections, and no new one can reach the database.
          await admin.unsafe(`drop database ${name} with (force)`);
          const gone = await ready();
          expect(gone.status).toBe(503);
          expect(gone.body).toMatchObject({
            status: "unavailable",
            failing: ["database"],
            checks: { database: { kind: "postgres", reachable: false, migrations: "unknown" } },
          });
          expect(JSON.stringify(gone.body)).not.toContain(name);
          expect(await health()).toMatchObject({ status: 200, body: { status: "ok" } });
        });
      } finally {
        await handle.close().catch(() => {});
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
  );

  it.skipIf(!process.env.DATABASE_URL)(
    "Postgres: connections terminated and refused make ready 503 until they are allowed again",
    async () => {
      const name = `baton_ready_${randomBytes(6).toString("hex")}`;
      const admin = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const url = new URL(process.env.DATABASE_URL ?? "");
      url.pathname = `/${name}`;
      const handle = openDatabase({ url: url.toString() });
      try {
        await migrateDatabase(handle, undefined, url.toString());
        await withDatabase(handle, async () => {
          expect((await ready()).status).toBe(200);

          // The server goes away for this database: its connections end, new ones are refused.
          await admin.unsafe(`alter database ${name} allow_connections false`);
          await admin.unsafe(
            `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`,
          );
          const down = await ready();
          expect(down.status).toBe(503);
          expect(down.body).toMatchObject({
            status: "unavailable",
            failing: ["database"],
            checks: { database: { kind: "postgres", reachable: false, migrations: "unknown" } },
          });
          expect(JSON.stringify(down.body)).not.toContain(name);
          expect(await health()).toMatchObject({ status: 200, body: { status: "ok" } });

          // Back without a restart: the next check opens a fresh connection.
          await admin.unsafe(`alter database ${name} allow_connections true`);
          const back = await ready();
          expect(back.status).toBe(200);
          expect(back.body).toMatchObject({
            failing: [],
            checks: { database: { reachable: true } },
          });
        });
      } finally {
        await handle.close().catch(() => {});
        await admin.unsafe(`alter database ${name} allow_connections true`).catch(() => {});
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
  );

  it.skipIf(Boolean(process.env.DATABASE_URL))(
    "PGlite (the Postgres pass drops a real database instead): a closed client is unreachable",
    async () => {
      const handle = openDatabase({ pgliteDir: "memory://" });
      await handle.close();
      await withDatabase(handle, async () => {
        const answer = await ready();
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject({
          failing: ["database"],
          checks: { database: { kind: "pglite", reachable: false } },
        });
        expect(await health()).toMatchObject({ status: 200, body: { status: "ok" } });
      });
    },
  );
});
