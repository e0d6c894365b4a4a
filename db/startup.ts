// Migrations run inside the server process at start-up: a PGlite folder admits one process,
// so no separate migration process may open it beside the server.
import path from "node:path";
import { dataDir, getDatabase } from "./client";
import { migrateDatabase } from "./migrate";
import { claimPgliteFolder } from "./server-lock";

export async function prepareDatabase(): Promise<void> {
  const handle = getDatabase();
  await migrateDatabase(handle);
  if (handle.kind === "pglite") claimPgliteFolder(path.join(dataDir(), "pglite"));
}
