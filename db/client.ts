// One database client per process: embedded PGlite in the data folder by default, postgres.js
// when DATABASE_URL is set. Both are Drizzle Postgres databases, so one code path serves both.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { type ServerEnv, serverEnv } from "@/core/env";
import { withConnectionRetry } from "./retry";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  close: () => Promise<void>;
}

/** The folder for the embedded database and the generated auth secret (BATON_DATA_DIR). */
export function dataDir(env: Pick<ServerEnv, "BATON_DATA_DIR"> = serverEnv()): string {
  // The data folder is chosen at run time; tracing it into the build would copy the project.
  return path.resolve(/*turbopackIgnore: true*/ env.BATON_DATA_DIR ?? ".data");
}

export interface OpenDatabaseOptions {
  url?: string;
  /** PGlite folder; "memory://" for an in-memory database (tests). */
  pgliteDir?: string;
}

export function openDatabase(options: OpenDatabaseOptions = {}): DatabaseHandle {
  if (options.url) {
    // Each request holds at most a few connections; 10 leaves room for concurrent resets.
    const url = options.url;
    // A statement or transaction cut off by a terminated connection runs once more on a fresh
    // one (db/retry.ts); PGlite runs in this process and has no connection to lose.
    const client = withConnectionRetry(() => postgres(url, { max: 10, onnotice: () => {} }));
    return {
      db: drizzlePostgres(client, { schema }) as unknown as Database,
      kind: "postgres",
      close: () => client.end({ timeout: 5 }),
    };
  }
  const dir = options.pgliteDir ?? path.join(dataDir(), "pglite");
  if (!dir.startsWith("memory://")) mkdirSync(dir, { recursive: true }); // PGlite won't mkdir.
  const client = new PGlite(dir);
  return {
    db: drizzlePglite(client, { schema }) as unknown as Database,
    kind: "pglite",
    close: () => client.close(),
  };
}

const globalForDb = globalThis as unknown as { batonDb?: DatabaseHandle };

const folderLocks = globalThis as unknown as { batonFolderLocks?: Map<string, unknown> };

/**
 * The process-wide client (PGlite allows one per data folder, so never open a second). The
 * folder must be locked first (db/server-lock.ts: the server at start-up, the scripts before
 * they open it), so nothing can open a folder another process holds.
 */
export function getDatabase(): DatabaseHandle {
  if (!globalForDb.batonDb) {
    const url = serverEnv().DATABASE_URL;
    if (!url) {
      const folder = path.resolve(/*turbopackIgnore: true*/ dataDir(), "pglite");
      if (!folderLocks.batonFolderLocks?.has(folder)) {
        throw new Error(`The data folder ${folder} is opened before its lock was taken.`);
      }
    }
    globalForDb.batonDb = openDatabase({ url });
  }
  return globalForDb.batonDb;
}

export function getDb(): Database {
  return getDatabase().db;
}

/** Rows of a raw query: postgres.js returns an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
