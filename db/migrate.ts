// Applies the committed drizzle-kit migrations to a database handle; run inside the server
// process at start-up (PGlite allows one process per folder) and by `npm run db:migrate`.
import path from "node:path";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { serverEnv } from "@/core/env";
import type { DatabaseHandle } from "./client";

export const MIGRATIONS_FOLDER = path.join(
  /*turbopackIgnore: true*/ process.cwd(),
  "db",
  "migrations",
);

/** Arbitrary but fixed: the advisory lock every Baton process takes around its migrations. */
const MIGRATION_LOCK_ID = 4_172_025;

export async function migrateDatabase(
  handle: DatabaseHandle,
  migrationsFolder = MIGRATIONS_FOLDER,
  url = serverEnv().DATABASE_URL,
) {
  if (handle.kind === "pglite") {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  // Several servers may start at once on one Postgres database: serialize their migrations
  // with a session-level advisory lock held on a connection of its own.
  const lock = url ? postgres(url, { max: 1, onnotice: () => {} }) : null;
  try {
    await lock?.unsafe(`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    await migratePostgres(handle.db as unknown as PostgresJsDatabase, { migrationsFolder });
  } finally {
    await lock?.unsafe(`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`).catch(() => {});
    await lock?.end({ timeout: 5 });
  }
}
