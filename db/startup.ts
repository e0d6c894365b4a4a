// Migrations run inside the server process at start-up: a PGlite folder admits one process,
// so no separate migration process may open it beside the server. For PGlite the folder lock
// comes first of all, before anything opens the database (db/server-lock.ts).
import path from "node:path";
import { serverEnv } from "@/core/env";
import { dataDir, getDatabase } from "./client";
import { migrateDatabase } from "./migrate";
import { lockFolderOrExit } from "./server-lock";

export async function prepareDatabase(): Promise<void> {
  if (!serverEnv().DATABASE_URL) await lockFolderOrExit(path.join(dataDir(), "pglite"));
  const handle = getDatabase();
  await migrateDatabase(handle);
}
