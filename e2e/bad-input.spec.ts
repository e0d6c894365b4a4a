// Malformed input over real HTTP, where Next itself decodes the path: bad percent-encoding in a
// path segment of every dynamic route answers a JSON 400/404 (pages: the not-found page), never
// a 500; and an unauthenticated 200 MB body is refused without being read into memory.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { listRouteFiles, PROJECT_ROOT } from "../tests/support/routes";
import { ChatPage } from "./pages/chat-page";

const BAD_SEGMENTS = ["%C0%AF", "%ZZ", "%", "%E0%A4%A"];
const SOME_ID = "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";

/** Each route's path with one dynamic segment replaced by `bad` (the others get a valid id). */
function badPaths(bad: string): { label: string; path: string; methods: string[] }[] {
  const out: { label: string; path: string; methods: string[] }[] = [];
  for (const route of listRouteFiles()) {
    route.segments.forEach((segment, index) => {
      if (segment.kind === "static") return;
      const parts = route.segments.map((s, i) =>
        i === index ? bad : s.kind === "static" ? s.value : SOME_ID,
      );
      out.push({ label: route.pattern, path: `/${parts.join("/")}`, methods: route.methods });
    });
  }
  return out;
}

test("bad percent-encoding in a path segment: JSON 400/404 from the API, the not-found page for pages", async ({
  page,
  baseURL,
}) => {
  await new ChatPage(page).openNew(); // a guest session, so requests get past authentication
  const origin = new URL(baseURL ?? "").origin;
  const wrong: string[] = [];
  const named = ["/api/handoffs/%C0%AF", "/api/threads/%ZZ"].map((p) => ({
    label: p,
    path: p,
    methods: ["GET"],
  }));
  for (const bad of BAD_SEGMENTS) {
    for (const { label, path: target, methods } of [...named, ...badPaths(bad)]) {
      for (const method of methods.filter((m) => m !== "HEAD" && m !== "OPTIONS")) {
        const response = await page.request.fetch(target, {
          method,
          headers: { origin, "content-type": "application/json" },
          data: method === "GET" ? undefined : "{}",
          maxRedirects: 0,
        });
        const type = response.headers()["content-type"] ?? "";
        const text = await response.text();
        let code: unknown;
        try {
          code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
        } catch {
          code = undefined;
        }
        if (![400, 404].includes(response.status()) || !type.includes("json") || !code) {
          wrong.push(
            `${method} ${target} (${label}): ${response.status()} ${type} ${text.slice(0, 60)}`,
          );
        }
      }
    }
  }
  // Route handlers answer JSON wherever they live (also /share/<token>/messages and its kin).
  expect.soft(wrong).toEqual([]);

  for (const target of ["/chat/%C0%AF", "/share/%C0%AF", "/chat/%ZZ", "/share/%ZZ", "/chat/%"]) {
    const response = await page.goto(target);
    expect.soft(response?.status(), target).toBe(404);
    await expect.soft(page.getByRole("heading", { name: "Not found" }), target).toBeVisible();
  }
});

// ── The 200 MB body ──

const TOTAL_BYTES = 200 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, "a");

function* chunks(total: number): Generator<Buffer> {
  for (let sent = 0; sent < total; sent += CHUNK.length) {
    yield total - sent >= CHUNK.length ? CHUNK : CHUNK.subarray(0, total - sent);
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resident memory of a process and all its descendants, in bytes. */
function treeRss(root: number): number {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(name), ppid);
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  }
  let total = 0;
  for (const pid of tree) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      total += Number(match?.[1] ?? 0) * 1024;
    } catch {
      // gone
    }
  }
  return total;
}

async function startServer(): Promise<{ child: ChildProcess; port: number; dataDir: string }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "baton-bigbody-"));
  // The real server process (npx would put a wrapper process in between).
  const child = spawn(
    process.execPath,
    [
      path.join(PROJECT_ROOT, "node_modules/next/dist/bin/next"),
      "start",
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
    ],
    {
      cwd: PROJECT_ROOT,
      env: { ...process.env, BATON_DATA_DIR: dataDir, PORT: String(port) },
      stdio: "ignore",
    },
  );
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("next start did not become healthy");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { child, port, dataDir };
}

/** Streams a 200 MB body from a generator; resolves with the status once the server answers. */
function postHuge(port: number, declareLength: boolean): Promise<{ status: number; sent: number }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (declareLength) headers["content-length"] = String(TOTAL_BYTES);
    const req = httpRequest({
      host: "127.0.0.1",
      port,
      path: "/api/chat",
      method: "POST",
      headers,
    });
    let sent = 0;
    let answered = false;
    req.on("response", (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode ?? 0, sent });
      req.destroy();
    });
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    void (async () => {
      for (const chunk of chunks(TOTAL_BYTES)) {
        if (answered || req.destroyed) return;
        sent += chunk.length;
        if (!req.write(chunk)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              req.off("drain", done);
              req.off("close", done);
              resolve();
            };
            req.on("drain", done);
            req.on("close", done);
          });
        }
      }
      if (!answered) req.end();
    })();
  });
}

test("an unauthenticated 200 MB POST /api/chat is refused without being read into memory", async () => {
  test.setTimeout(180_000);
  const { child, port, dataDir } = await startServer();
  try {
    const pid = child.pid ?? 0;
    // Load the route once, so what is measured is the request, not the first import.
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect([401, 413]).toContain(res.status);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const declareLength of [true, false]) {
      const baseline = treeRss(pid);
      // Measuring the server itself: a Next server with its database holds well over 50 MB.
      expect(baseline).toBeGreaterThan(50 * 1024 * 1024);
      let peak = baseline;
      const sampler = setInterval(() => {
        peak = Math.max(peak, treeRss(pid));
      }, 50);
      try {
        const { status, sent } = await postHuge(port, declareLength);
        expect([401, 413], `with${declareLength ? "" : "out"} Content-Length`).toContain(status);
        test.info().annotations.push({
          type: `200 MB body with${declareLength ? "" : "out"} Content-Length`,
          description: `${status} after ${(sent / 1024 / 1024).toFixed(1)} MB sent`,
        });
        // Keep watching a moment: a server that buffers the body keeps reading after answering.
        await new Promise((resolve) => setTimeout(resolve, 1500));
      } finally {
        clearInterval(sampler);
      }
      peak = Math.max(peak, treeRss(pid));
      const grownMb = (peak - baseline) / 1024 / 1024;
      test.info().annotations.push({
        type: `RSS growth with${declareLength ? "" : "out"} Content-Length`,
        description: `${grownMb.toFixed(1)} MB`,
      });
      expect(grownMb, `RSS growth with${declareLength ? "" : "out"} Content-Length`).toBeLessThan(
        50,
      );
    }
    // Still serving.
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});
