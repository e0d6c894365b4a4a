// Migrations run inside the server process at start-up: a PGlite folder admits one process.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const path = await import("node:path");
  const { dataDir, getDatabase } = await import("./db/client");
  const { migrateDatabase } = await import("./db/migrate");
  const { claimPgliteFolder } = await import("./db/server-lock");
  const handle = getDatabase();
  await migrateDatabase(handle);
  if (handle.kind === "pglite") claimPgliteFolder(path.join(dataDir(), "pglite"));
}
