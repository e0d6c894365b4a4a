// `npm run db:migrate`: applies migrations. On PGlite it takes the folder lock first, so it
// refuses a folder a running server holds (the server applies migrations itself at start-up).
import path from "node:path";
import { EnvError, serverEnv } from "@/core/env";
import { log } from "@/core/log";
import { dataDir, openDatabase } from "./client";
import { migrateDatabase } from "./migrate";
import { lockFolderOrExit } from "./server-lock";

let url: string | undefined;
try {
  url = serverEnv().DATABASE_URL;
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  log.error(`db:migrate cannot start. ${error.message}`);
  process.exit(1);
}
const lock = url
  ? null
  : await lockFolderOrExit(
      path.join(dataDir(), "pglite"),
      "A running server applies migrations itself at start-up.",
    );
const handle = openDatabase({ url });
await migrateDatabase(handle);
await handle.close();
lock?.release();
log.info(`migrations applied (${handle.kind})`);
