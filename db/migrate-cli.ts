// `npm run db:migrate`: never run this beside a server using the same PGlite folder.
import { openDatabase } from "./client";
import { migrateDatabase } from "./migrate";

const handle = openDatabase({ url: process.env.DATABASE_URL || undefined });
await migrateDatabase(handle);
await handle.close();
console.log(`migrations applied (${handle.kind})`);
