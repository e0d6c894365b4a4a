// Readiness (`GET /api/ready`): whether this process can do its work now — the database reachable
// with every migration applied, and Redis answering when REDIS_URL is set — unlike liveness
// (`/api/health`), which only says the process serves. A check's answer names what failed and
// never why: error messages and connection strings stay out of answers and logs.
import "server-only";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { serverEnv } from "@/core/env";
import { log } from "@/core/log";
import { type DatabaseHandle, type DatabaseKind, getDatabase, rowsOf } from "@/db/client";
import { MIGRATIONS_FOLDER } from "@/db/migrate";
import { pingRateLimitRedis } from "@/lib/http/rate-limit";
import packageJson from "@/package.json";

/** A dependency slower than this counts as down: a readiness probe must answer quickly. */
const CHECK_TIMEOUT_MS = 2000;

type Migrations = "current" | "behind" | "unknown";

export interface Readiness {
  status: "ok" | "unavailable";
  failing: ("database" | "redis")[];
  version: string;
  checks: {
    database: { kind: DatabaseKind; reachable: boolean; migrations: Migrations };
    redis: { configured: boolean; reachable?: boolean };
  };
}

class CheckTimeout extends Error {
  override name = "CheckTimeout";
}

function withTimeout<T>(work: Promise<T>, ms = CHECK_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

let journalLatest: number | null = null;

/** The newest migration's timestamp in the committed journal (what drizzle records applying it). */
function latestMigration(): number {
  if (journalLatest === null) {
    const file = path.join(MIGRATIONS_FOLDER, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(file, "utf8")) as { entries: { when: number }[] };
    journalLatest = Math.max(0, ...journal.entries.map((entry) => entry.when));
  }
  return journalLatest;
}

/**
 * Drizzle's migrator applies every journal entry newer than the last `created_at` it recorded,
 * so the database is current exactly when that record has reached the journal's newest entry.
 */
async function migrationsOf(handle: DatabaseHandle): Promise<Migrations> {
  try {
    const table = await withTimeout(
      handle.db.execute(
        sql`select to_regclass('drizzle.__drizzle_migrations') is not null as found`,
      ),
    );
    // A database nothing was ever applied to has no record table yet.
    if (!rowsOf<{ found: boolean }>(table)[0]?.found) return "behind";
    const result = await withTimeout(
      handle.db.execute(sql`select max(created_at) as last from drizzle.__drizzle_migrations`),
    );
    const last = Number(rowsOf<{ last: string | number | null }>(result)[0]?.last ?? 0);
    return last >= latestMigration() ? "current" : "behind";
  } catch (error) {
    log.warn("readiness: the applied migrations could not be read", error);
    return "unknown";
  }
}

async function checkDatabase(
  handle: DatabaseHandle = getDatabase(),
): Promise<Readiness["checks"]["database"]> {
  try {
    await withTimeout(handle.db.execute(sql`select 1`));
  } catch (error) {
    log.warn("readiness: the database is unreachable", error);
    return { kind: handle.kind, reachable: false, migrations: "unknown" };
  }
  return { kind: handle.kind, reachable: true, migrations: await migrationsOf(handle) };
}

async function checkRedis(): Promise<Readiness["checks"]["redis"]> {
  const url = serverEnv().REDIS_URL;
  if (!url) return { configured: false };
  const reachable = await withTimeout(pingRateLimitRedis(url)).catch(() => false);
  return { configured: true, reachable };
}

export async function readiness(): Promise<Readiness> {
  const [database, redis] = await Promise.all([checkDatabase(), checkRedis()]);
  const failing: Readiness["failing"] = [];
  if (!database.reachable || database.migrations !== "current") failing.push("database");
  if (redis.configured && !redis.reachable) failing.push("redis");
  return {
    status: failing.length === 0 ? "ok" : "unavailable",
    failing,
    version: packageJson.version,
    checks: { database, redis },
  };
}
