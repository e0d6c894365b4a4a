// Migrations run inside the server process at start-up: a PGlite folder admits one process.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getDatabase } = await import("./db/client");
  const { migrateDatabase } = await import("./db/migrate");
  await migrateDatabase(getDatabase());
}
