// Gives each database test file its own fresh, migrated database: an in-memory PGlite, or —
// when DATABASE_URL is set — a new database on that Postgres server, dropped afterwards.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { settleTitles } from "@/lib/chat/thread-title";
import { settleDraftsAhead } from "@/lib/context/draft-ahead";
import { settleRecoveries } from "@/lib/runs/recovery-registry";

const holder = globalThis as unknown as { batonDb?: DatabaseHandle; batonAuth?: unknown };
process.env.BETTER_AUTH_SECRET ??= "baton-test-secret-0123456789abcdef0123456789";
// Every route call writes a request line at info (lib/metrics/http.ts): thousands per run. Tests
// that read the log set their own level (tests/db/request-log.test.ts, redaction-leaks).
process.env.BATON_LOG_LEVEL ??= "warn";
let dropDatabase: (() => Promise<void>) | null = null;
let migrationUrl: string | undefined;

beforeAll(async () => {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `baton_test_${randomBytes(6).toString("hex")}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const testUrl = new URL(url);
    testUrl.pathname = `/${name}`;
    holder.batonDb = openDatabase({ url: testUrl.toString() });
    migrationUrl = testUrl.toString();
    dropDatabase = async () => {
      const again = postgres(url, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    };
  } else {
    holder.batonDb = openDatabase({ pgliteDir: "memory://" });
  }
  await migrateDatabase(holder.batonDb, undefined, migrationUrl);
});

afterAll(async () => {
  // Reading a thread starts its recovery in the background: let it end before the database goes,
  // or its queries fail (and a retry reconnects) against a closed or dropped database. The same
  // goes for a title or a handoff being drafted ahead.
  await Promise.race([
    Promise.all([settleRecoveries(), settleTitles(), settleDraftsAhead()]),
    new Promise((resolve) => setTimeout(resolve, 10_000)),
  ]);
  await holder.batonDb?.close();
  holder.batonDb = undefined;
  holder.batonAuth = undefined; // it captured the closed database
  await dropDatabase?.();
});
