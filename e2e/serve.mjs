// Starts the production build for e2e on a fresh data folder of its own (never the dev one),
// with the offline model slowed down enough that tests can watch and interrupt a reply.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";

const port = process.argv[2] ?? "3100";
const dataDir = path.resolve(".data", `e2e-${port}`);
rmSync(dataDir, { recursive: true, force: true });

const env = {
  ...process.env,
  BATON_DATA_DIR: dataDir,
  BATON_LOCAL_DELAY_MS: process.env.BATON_LOCAL_DELAY_MS ?? "60",
  PORT: port,
  NEXT_TELEMETRY_DISABLED: "1",
};
const child = spawn("npx", ["next", "start", "-p", port, "-H", "127.0.0.1"], {
  env,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
