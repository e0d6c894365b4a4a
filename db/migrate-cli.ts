// `npm run db:migrate`: applies migrations. It refuses to open a PGlite folder that a running
// server holds (the server applies migrations itself at start-up).
import path from "node:path";
import { EnvError, serverEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { dataDir, openDatabase } from "./client";
import { migrateDatabase } from "./migrate";
import { pgliteFolderHolder } from "./server-lock";

let url: string | undefined;
try {
  url = serverEnv().DATABASE_URL;
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  log.error(`db:migrate cannot start. ${error.message}`);
  process.exit(1);
}
if (!url) {
  const holder = pgliteFolderHolder(path.join(dataDir(), "pglite"));
  if (holder !== null) {
    log.error(
      `A Baton server (pid ${holder}) is using ${dataDir()}; it applies migrations at start-up. ` +
        "Stop it before running db:migrate.",
    );
    process.exit(1);
  }
}
const handle = openDatabase({ url });
await migrateDatabase(handle);
await handle.close();
log.info(`migrations applied (${handle.kind})`);
