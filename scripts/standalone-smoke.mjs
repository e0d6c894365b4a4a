// CI's check that the standalone build is complete: starts `node .next/standalone/server.js` (as
// the image runs it) on a free port with a fresh data folder, waits for /api/health, checks that
// readiness finds the migrations applied and that the browser's assets are served, then sends one
// chat turn over HTTP as a guest and reads the reply's stream to its end. Exits non-zero on any
// failure, within a bounded time. Build first: `npm run build`.
// `--url http://host:port` runs the same checks against a server already running (a container),
// less the one on its output, which this script then cannot read.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { standaloneServer } from "./standalone-assets.mjs";

const TOTAL_MS = 150_000;
const START_MS = 90_000;
const REQUEST_MS = 30_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const fail = (message) => {
  throw new Error(message);
};

function request(url, init = {}) {
  return fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_MS) });
}

async function waitForHealth(base, server) {
  const deadline = Date.now() + START_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      fail(`the server exited (${server.exitCode ?? server.signalCode}) before it was healthy`);
    }
    try {
      const response = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  fail(`/api/health did not answer 200 within ${START_MS / 1000} s`);
}

async function signInAsGuest(base) {
  const response = await request(`${base}/api/auth/sign-in/anonymous`, {
    method: "POST",
    headers: { origin: base, "content-type": "application/json" },
    body: "{}",
  });
  if (response.status !== 200) fail(`guest sign-in answered ${response.status}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie) fail("guest sign-in set no cookie");
  return cookie;
}

/** A script the home page links to must be served from the copied .next/static. */
async function checkStaticAsset(base, cookie) {
  const page = await request(`${base}/`, { headers: { cookie } });
  if (page.status !== 200) fail(`GET / answered ${page.status}`);
  const asset = /\/_next\/static\/[^"'\s]+\.js/.exec(await page.text())?.[0];
  if (!asset) fail("the home page links no /_next/static script");
  const response = await request(`${base}${asset}`);
  if (response.status !== 200) fail(`${asset} answered ${response.status}`);
}

/** One chat turn; resolves with the reply's text, read from the whole SSE stream. */
async function chatTurn(base, cookie) {
  const response = await request(`${base}/api/chat`, {
    method: "POST",
    headers: { cookie, origin: base, "content-type": "application/json" },
    body: JSON.stringify({
      trigger: "submit-message",
      id: crypto.randomUUID(),
      message: {
        id: crypto.randomUUID(),
        role: "user",
        parts: [{ type: "text", text: "remember the smoke test ran" }],
      },
    }),
  });
  if (response.status !== 200) fail(`POST /api/chat answered ${response.status}`);
  const events = (await response.text()).split("\n\n").map((event) => event.trim());
  if (!events.includes("data: [DONE]")) fail("the chat stream ended without [DONE]");
  const parts = events
    .filter((event) => event.startsWith("data: {"))
    .map((event) => JSON.parse(event.slice("data: ".length)));
  const errors = parts.filter((part) => part.type === "error");
  if (errors.length > 0) fail(`the chat stream carried an error: ${JSON.stringify(errors[0])}`);
  return parts
    .filter((part) => part.type === "text-delta")
    .map((part) => part.delta ?? "")
    .join("");
}

async function smoke(base, server, output) {
  await waitForHealth(base, server);
  return checkServer(base, output);
}

async function checkServer(base, output) {
  const ready = await request(`${base}/api/ready`);
  const readiness = await ready.json();
  if (ready.status !== 200 || readiness.checks?.database?.migrations !== "current") {
    fail(`/api/ready answered ${ready.status}: ${JSON.stringify(readiness)}`);
  }
  const cookie = await signInAsGuest(base);
  await checkStaticAsset(base, cookie);
  const reply = await chatTurn(base, cookie);
  if (reply.trim() === "") fail("the reply's text is empty");
  if (!output) return reply;
  // The request log is JSON lines naming route patterns (lib/metrics/http.ts).
  const logged = output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
  if (!logged.some((r) => r.event === "request" && r.route === "/api/chat" && r.status === 200)) {
    fail("the server wrote no request record for POST /api/chat");
  }
  return reply;
}

async function stop(server) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  const timer = setTimeout(() => server.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

async function main() {
  const serverJs = standaloneServer();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "baton-smoke-"));
  const server = spawn(process.execPath, [serverJs], {
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      BATON_DATA_DIR: dataDir,
      // The embedded database on the fresh folder, whatever the caller's environment says.
      DATABASE_URL: "",
      REDIS_URL: "",
      BATON_LOCAL_DELAY_MS: "0",
      BATON_LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  server.stdout.on("data", (chunk) => {
    printed += chunk;
  });
  server.stderr.on("data", (chunk) => {
    printed += chunk;
  });
  const overall = setTimeout(() => {
    console.error(`standalone smoke: no result within ${TOTAL_MS / 1000} s\n${printed}`);
    server.kill("SIGKILL");
    process.exit(1);
  }, TOTAL_MS);
  try {
    const started = Date.now();
    const reply = await smoke(base, server, () => printed);
    console.log(
      `standalone smoke: healthy, migrated, assets served, and a ${reply.length}-character reply ` +
        `in ${((Date.now() - started) / 1000).toFixed(1)} s (${path.relative(process.cwd(), serverJs)})`,
    );
  } catch (error) {
    console.error(`standalone smoke failed: ${error.message}\n--- server output ---\n${printed}`);
    process.exitCode = 1;
  } finally {
    clearTimeout(overall);
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function checkRunning(base) {
  const timer = setTimeout(() => {
    console.error(`smoke: no result from ${base} within ${TOTAL_MS / 1000} s`);
    process.exit(1);
  }, TOTAL_MS);
  try {
    const health = await request(`${base}/api/health`);
    if (health.status !== 200) fail(`/api/health answered ${health.status}`);
    const reply = await checkServer(base, null);
    console.log(
      `smoke: ${base} is healthy, migrated, serves its assets; a ${reply.length}-character reply`,
    );
  } catch (error) {
    console.error(`smoke of ${base} failed: ${error.message}`);
    process.exitCode = 1;
  } finally {
    clearTimeout(timer);
  }
}

const urlAt = process.argv.indexOf("--url");
if (urlAt > 0) await checkRunning((process.argv[urlAt + 1] ?? "").replace(/\/+$/, ""));
else await main();
