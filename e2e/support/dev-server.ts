// The development server (`next dev`, what the README's first command runs) for specs tagged
// @dev-server: spawned on a store of its own, in its own process group so that stopping it stops
// the workers Next starts, and with its own build folder (.next-e2e-dev, named in tsconfig.json's
// include so Next leaves that file alone) beside the production build the other specs serve.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { E2E_RATE_LIMITS, freePort, type ServerStore } from "./server-process";

export const DEV_DIST_DIR = ".next-e2e-dev";

export interface DevServer {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startDevServer(
  store: ServerStore,
  env: Record<string, string> = {},
): Promise<DevServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.resolve("node_modules/next/dist/bin/next"),
      "dev",
      "--turbopack",
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
    ],
    {
      env: {
        ...process.env,
        ...E2E_RATE_LIMITS,
        NODE_ENV: "development",
        NEXT_DIST_DIR: DEV_DIST_DIR,
        NEXT_TELEMETRY_DISABLED: "1",
        BATON_LOG_LEVEL: "warn",
        ...store.env,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let buffer = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const group = -(child.pid ?? 0);
    process.kill(group, "SIGTERM");
    const done = await Promise.race([
      exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000)),
    ]);
    if (!done) {
      process.kill(group, "SIGKILL");
      await exited;
    }
    // The workers of the group may outlive the parent by a moment.
    for (let i = 0; i < 50; i++) {
      try {
        process.kill(group, 0);
      } catch {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  // The first request compiles the route (and the instrumentation hook): minutes on a loaded
  // machine, so the deadline is generous.
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next dev exited before it was ready:\n${buffer}`);
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(60_000) });
      if (response.ok) break;
    } catch {
      // Not listening, or still compiling.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next dev not ready after 300 s:\n${buffer}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { url, output: () => buffer, stop };
}

/** The ids of the guest accounts in a store (its server stopped when it is a PGlite folder). */
export async function guestAccountIds(store: ServerStore): Promise<string[]> {
  const query = "select id from users where is_anonymous order by id";
  if (store.databaseUrl) {
    const sql = postgres(store.databaseUrl, { max: 1, onnotice: () => {} });
    try {
      return (await sql.unsafe<{ id: string }[]>(query)).map((row) => row.id);
    } finally {
      await sql.end();
    }
  }
  const db = new PGlite(path.join(store.dataDir, "pglite"));
  try {
    return (await db.query<{ id: string }>(query)).rows.map((row) => row.id);
  } finally {
    await db.close();
  }
}
