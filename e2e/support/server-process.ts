// Production servers a spec starts, kills and restarts itself (crash tests, the PGlite folder
// lock), beside the ones playwright.config.ts starts for every run. The server is the standalone
// build's `node …/server.js`, as the image runs it, spawned directly (not through npx or a shell)
// so a signal hits the server itself.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import postgres from "postgres";

// The same raised limits as the config's servers: specs send bursts from one address.
export const E2E_RATE_LIMITS = {
  BATON_RATE_LIMIT_SIGN_IN: "1000/60s",
  BATON_RATE_LIMIT_SIGN_UP: "1000/60s",
  BATON_RATE_LIMIT_GUEST: "1000/60s",
  BATON_RATE_LIMIT_CHAT: "1000/60s",
  BATON_RATE_LIMIT_API: "10000/60s",
} as const;

const DIST_DIR = process.env.NEXT_DIST_DIR ?? ".next";
const SERVER_JS = path.resolve(DIST_DIR, "standalone", "server.js");
let assetsReady = false;

/** Copies the browser's assets beside server.js, once per run (scripts/standalone-assets.mjs). */
function prepareStandalone(): void {
  if (assetsReady) return;
  const result = spawnSync(process.execPath, ["scripts/standalone-assets.mjs"], {
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`standalone build not ready:\n${result.stderr}`);
  assetsReady = true;
}

/** A port nothing listens on right now (the OS picks one for a throwaway listener). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Where a spawned server keeps its data: its own folder, and its own Postgres database when
 *  the run is on Postgres. Several servers may share one store (restarts, the lock test). */
export interface ServerStore {
  dataDir: string;
  /** The database URL of this store, or undefined on PGlite. */
  databaseUrl: string | undefined;
  /** The environment a server needs to use this store. */
  env: Record<string, string>;
  /** Removes the folder and drops the database (stop the servers first). */
  dispose: () => Promise<void>;
}

/**
 * A fresh store: a new folder under .data/, and — when DATABASE_URL is set (the Postgres pass) —
 * a new database `baton_e2e_<random>` on that server, dropped by dispose(). `engine: "pglite"`
 * forces the embedded database even on the Postgres pass.
 */
export async function freshStore(
  options: { engine?: "pglite" | "auto" } = {},
): Promise<ServerStore> {
  const id = randomBytes(6).toString("hex");
  const dataDir = path.resolve(".data", `e2e-own-${id}`);
  mkdirSync(dataDir, { recursive: true });
  const adminUrl = options.engine === "pglite" ? undefined : process.env.DATABASE_URL || undefined;
  let databaseUrl: string | undefined;
  const name = `baton_e2e_${id}`;
  if (adminUrl) {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  return {
    dataDir,
    databaseUrl,
    // An empty DATABASE_URL counts as unset, which keeps an inherited one from leaking in.
    env: { BATON_DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? "" },
    dispose: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      if (adminUrl) {
        const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
  };
}

export interface SpawnServerOptions {
  /** Variables on top of the runner's environment and the e2e defaults (store.env among them). */
  env?: Record<string, string | undefined>;
  port?: number;
  /** Also append everything the server prints to this file. */
  logFile?: string;
}

export interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  /** Null while running; the exit code, or null with `signal` set when a signal ended it. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly exited: boolean;
  /** Everything the server printed so far, stdout and stderr interleaved. */
  output: () => string;
  kill: (signal?: NodeJS.Signals) => void;
  /** Resolves when the process has exited; rejects after timeoutMs. */
  waitForExit: (timeoutMs?: number) => Promise<ServerExit>;
  /** Resolves once /api/health answers 200; rejects (with the output) if the server exits first. */
  ready: (timeoutMs?: number) => Promise<void>;
  /** SIGTERM, then SIGKILL if it has not exited within a few seconds. */
  stop: () => Promise<void>;
}

/** Spawns the standalone server of the production build (build it first) without waiting. */
export async function spawnServer(options: SpawnServerOptions = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...E2E_RATE_LIMITS,
    BATON_LOCAL_DELAY_MS: process.env.BATON_LOCAL_DELAY_MS ?? "60",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    ...options.env,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  prepareStandalone();
  const child: ChildProcess = spawn(process.execPath, [SERVER_JS], {
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error("could not spawn the standalone server");
  let buffer = "";
  const capture = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    buffer += text;
    if (options.logFile) appendFileSync(options.logFile, text);
  };
  child.stdout?.on("data", capture);
  child.stderr?.on("data", capture);
  let exit: ServerExit | null = null;
  const exitPromise = new Promise<ServerExit>((resolve) => {
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });

  const waitForExit = async (timeoutMs = 30_000) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`server on ${url} still running after ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([exitPromise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  const ready = async (timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (exit) {
        throw new Error(
          `server on ${url} exited (code ${exit.code}, signal ${exit.signal}) before it was ready:\n${buffer}`,
        );
      }
      try {
        const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) });
        if (response.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`server on ${url} not ready after ${timeoutMs} ms:\n${buffer}`);
  };

  return {
    url,
    port,
    pid: child.pid,
    get exitCode() {
      return exit?.code ?? null;
    },
    get signal() {
      return exit?.signal ?? null;
    },
    get exited() {
      return exit !== null;
    },
    output: () => buffer,
    kill: (signal = "SIGTERM") => {
      if (!exit) child.kill(signal);
    },
    waitForExit,
    ready,
    stop: async () => {
      if (exit) return;
      child.kill("SIGTERM");
      try {
        await waitForExit(10_000);
      } catch {
        child.kill("SIGKILL");
        await exitPromise;
      }
    },
  };
}

/** Spawns a server and waits until it answers /api/health. */
export async function startServer(options: SpawnServerOptions = {}): Promise<ServerProcess> {
  const server = await spawnServer(options);
  try {
    await server.ready();
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}
