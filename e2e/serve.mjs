// Starts the production build for e2e the way the image runs it (`node .next/standalone/server.js`)
// on a fresh data folder of its own (never the dev one), with the offline model slowed down
// enough that tests can watch and interrupt a reply.
// `--seed MESSAGES:SESSIONS` first seeds a long thread (scripts/seed-long-thread.ts) into that
// folder — before the server opens it, since a PGlite folder admits one process.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { standaloneServer } from "../scripts/standalone-assets.mjs";

const port = process.argv[2] ?? "3100";
const seedIndex = process.argv.indexOf("--seed");
const seed = seedIndex > 0 ? process.argv[seedIndex + 1] : undefined;
const dataDir = path.resolve(".data", `e2e-${port}`);
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

const env = {
  ...process.env,
  BATON_DATA_DIR: dataDir,
  BATON_LOCAL_DELAY_MS: process.env.BATON_LOCAL_DELAY_MS ?? "60",
  // A line per request at info would bury the run's output (Playwright pipes it through).
  BATON_LOG_LEVEL: process.env.BATON_LOG_LEVEL ?? "warn",
  // Specs start their MCP tool servers on this machine, which Baton refuses by default.
  BATON_MCP_ALLOWED_HOSTS: process.env.BATON_MCP_ALLOWED_HOSTS ?? "127.0.0.1",
  PORT: port,
  NEXT_TELEMETRY_DISABLED: "1",
};

if (seed) {
  const [messages = "10000", sessions = "8"] = seed.split(":");
  const result = spawnSync(
    "npx",
    [
      "tsx",
      "--conditions=react-server",
      "scripts/seed-long-thread.ts",
      "--messages",
      messages,
      "--sessions",
      sessions,
      "--out",
      path.join(dataDir, "seed.json"),
    ],
    { env, stdio: "inherit" },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(process.execPath, [standaloneServer()], {
  env: { ...env, HOSTNAME: "127.0.0.1" },
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
