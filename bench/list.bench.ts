// Message-list performance in Chromium: for 1,000-, 10,000- and 100,000-message threads
// (8 sessions, seeded before the server starts), the time from navigation start until the last
// message is in view, the message rows in the DOM, and the longest main-thread task while
// scrolling the whole thread from top to bottom and back. Each figure is the median of 3 runs.
// Beside "in view" stands the first paint of the same page with JavaScript off: the floor the
// server, network stack and browser set on this machine before any script runs. Each visit
// navigates a tab that is already open, on a server that has served the page before.
// Run: npx tsx bench/list.bench.ts   (PGlite; with DATABASE_URL set, a scratch database on that
//      server). It serves the build in BENCH_DIST_DIR (default .next-bench; BENCH_BUILD=1 builds
//      it first); BENCH_SIZES=1000,10000 chooses sizes.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { type BrowserContext, chromium, type Page } from "@playwright/test";
import postgres from "postgres";
import { table } from "./support";

const sizes = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const distDir = process.env.BENCH_DIST_DIR ?? ".next-bench";
const env = { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" };
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** Reads of the thread page before the timed visits (`BENCH_WARM_UP=0`: a server just started). */
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 10);
const databaseUrl = process.env.DATABASE_URL;

/** A scratch database on the DATABASE_URL server, or null on PGlite. */
async function scratchDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  if (!databaseUrl) return null;
  const name = `baton_bench_list_${randomBytes(4).toString("hex")}`;
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

// Passed as source text: tsx would wrap a function's inner helpers in `__name(...)`, which does
// not exist in the page. Scrolls to the top, then down to the bottom, then up to the top again,
// two viewports a frame, and returns the longest task a `longtask` observer saw meanwhile, the
// frames scrolled and the page requests made on the way (so a run that scrolled nothing, or
// loaded nothing, shows as such rather than as a short task).
const SCROLL_THROUGH = `(async () => {
  const scroller = document.querySelector('[data-testid="message-scroller"]');
  if (!scroller) return { max: -1, frames: 0, pages: 0, long: 0 };
  let max = 0;
  let long = 0;
  let frames = 0;
  let pages = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      max = Math.max(max, entry.duration);
      long++;
    }
  });
  observer.observe({ type: "longtask", buffered: false });
  const requests = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name.includes("/api/threads/")) pages++;
  });
  requests.observe({ type: "resource", buffered: false });
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));
  const step = scroller.clientHeight * 2;
  for (let guard = 0; guard < 20000 && scroller.scrollTop > 0; guard++) {
    scroller.scrollTop = scroller.scrollTop - step;
    await frame();
    frames++;
  }
  for (let guard = 0; guard < 20000; guard++) {
    scroller.scrollTop = scroller.scrollTop + step;
    await frame();
    frames++;
    if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2) break;
  }
  for (let i = 0; i < 30; i++) await frame();
  observer.disconnect();
  requests.disconnect();
  return { max, frames, pages, long };
})()`;

interface Scrolled {
  max: number;
  frames: number;
  pages: number;
  /** Tasks of 50 ms or more. */
  long: number;
}

/**
 * A tab that is open and idle, as the one a user opens a thread in: Chromium starts a tab's
 * renderer process when the tab opens, and a launch still under way when the timed navigation
 * starts competes with the server and the page for the machine's two cores.
 */
async function openTab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.evaluate(() => document.readyState);
  await page.waitForTimeout(300);
  return page;
}

/** One visit: ms from navigation start until the last message is in view, and the DOM rows. */
async function openThread(page: Page, threadId: string, size: number) {
  await page.goto(`/chat/${threadId}`, { waitUntil: "commit" });
  const visibleAt = await page.waitForFunction(
    (text) => {
      const scroller = document.querySelector('[data-testid="message-scroller"]');
      if (!scroller) return false;
      const view = scroller.getBoundingClientRect();
      for (const row of document.querySelectorAll('[data-testid="message"]')) {
        if (!row.textContent?.includes(text)) continue;
        const box = row.getBoundingClientRect();
        if (box.height > 0 && box.top >= view.top - 1 && box.bottom <= view.bottom + 1) {
          return performance.now();
        }
      }
      return false;
    },
    `Message ${size}:`,
    { polling: "raf", timeout: 60_000 },
  );
  const visibleMs = (await visibleAt.jsonValue()) as number;
  const domRows = await page.getByTestId("message").count();
  // The rows in view first are the server's HTML; the browser's list (the one that scrolls and
  // loads pages) has taken over once its rows carry their index.
  const readyAt = await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="message-scroller"] [data-index]')
        ? performance.now()
        : false,
    undefined,
    { polling: "raf", timeout: 60_000 },
  );
  const readyMs = (await readyAt.jsonValue()) as number;
  // The scroll starts once the page has settled (a second without a long task, at most 10 s), so
  // the tasks that load the page (hydration, the list taking over, the sidebar's first fetch) are
  // counted here rather than as the scroll's.
  const settled = await page.waitForFunction(
    () => {
      const tasks = (window as unknown as { __benchTasks: { end: number; duration: number }[] })
        .__benchTasks;
      const lastEnd = tasks.reduce((end, task) => Math.max(end, task.end), 0);
      if (performance.now() - lastEnd < 1000 && performance.now() < 10_000) return false;
      return tasks.reduce((longest, task) => Math.max(longest, task.duration), 0);
    },
    undefined,
    { polling: 100, timeout: 60_000 },
  );
  const loadLongestMs = (await settled.jsonValue()) as number;
  return { visibleMs, readyMs, domRows, loadLongestMs };
}

/** Collects every long task of a page from its start, for `openThread`'s settling. */
const COLLECT_LONG_TASKS = `(() => {
  const tasks = [];
  window.__benchTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      tasks.push({ end: entry.startTime + entry.duration, duration: entry.duration });
    }
  }).observe({ type: "longtask", buffered: true });
})()`;

/**
 * The same page with JavaScript off, `RUNS` visits: when its HTML was all received and when the
 * browser first painted it. The server's HTML already holds the newest rows at the bottom of the
 * view, so this first paint is the floor for "last message in view" on this machine: what the
 * server, the network stack and the browser's parsing, style and layout cost before any script.
 */
async function paintWithoutScripts(context: BrowserContext, threadId: string) {
  const html: number[] = [];
  const paint: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await openTab(context);
    await page.goto(`/chat/${threadId}`, { waitUntil: "load" });
    // With scripts off the page's own evaluate is unavailable; the DevTools protocol still reads
    // its performance entries.
    const cdp = await context.newCDPSession(page);
    let timing: { html: number; paint: number } | undefined;
    for (let tries = 0; tries < 50 && !timing?.paint; tries++) {
      const { result } = await cdp.send("Runtime.evaluate", {
        expression: `({ html: performance.getEntriesByType("navigation")[0]?.responseEnd ?? 0, paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0 })`,
        returnByValue: true,
      });
      timing = result.value as { html: number; paint: number };
      if (!timing.paint) await new Promise((r) => setTimeout(r, 100));
    }
    if (!timing?.paint) throw new Error("no first paint with JavaScript off");
    html.push(timing.html);
    paint.push(timing.paint);
    await page.close();
  }
  return { html: median(html), paint: median(paint) };
}

if (process.env.BENCH_BUILD === "1") {
  const built = spawnSync("npx", ["next", "build"], { env, stdio: "inherit" });
  if (built.status !== 0) throw new Error("build failed");
}

async function waitForHealth(url: string, server: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error("server exited");
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("server did not start");
}

const rows: (string | number)[][] = [];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
});
try {
  for (const size of sizes) {
    const port = Number(process.env.BENCH_PORT ?? 3950);
    const dataDir = path.resolve(".data", `bench-list-${size}`);
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
    const database = await scratchDatabase();
    const runEnv = {
      ...env,
      BATON_DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
    };
    const seedFile = path.join(dataDir, "seed.json");
    const seeded = spawnSync(
      "npx",
      [
        "tsx",
        "--conditions=react-server",
        "scripts/seed-long-thread.ts",
        "--messages",
        String(size),
        "--sessions",
        "8",
        "--out",
        seedFile,
      ],
      { env: runEnv, stdio: "ignore" },
    );
    if (seeded.status !== 0) throw new Error(`seeding ${size} failed`);
    const seed = JSON.parse(readFileSync(seedFile, "utf8")) as {
      email: string;
      password: string;
      threadId: string;
    };
    const server = spawn("npx", ["next", "start", "-p", String(port), "-H", "127.0.0.1"], {
      env: runEnv,
      stdio: "ignore",
      detached: true,
    });
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitForHealth(`${base}/api/health`, server);
      const context = await browser.newContext({
        baseURL: base,
        viewport: { width: 1280, height: 800 },
      });
      await context.addInitScript(COLLECT_LONG_TASKS);
      const signIn = await context.newPage();
      await signIn.goto("/sign-in");
      await signIn.getByLabel("Email").fill(seed.email);
      await signIn.getByLabel("Password").fill(seed.password);
      await signIn.getByRole("button", { name: "Sign in" }).click();
      await signIn.getByText(seed.email).waitFor();
      await signIn.close();
      // A server that has served this page before: its route code loaded. The first read after a
      // start loads the route's modules (about 1 s to the first byte here, against 70-120 ms for
      // the reads after it), which is the server warming up, not the page's cost.
      for (let i = 0; i < WARM_UP; i++) {
        const warm = await context.request.get(`/chat/${seed.threadId}`);
        if (!warm.ok()) throw new Error(`warm-up read of the thread page: ${warm.status()}`);
      }

      const visible: number[] = [];
      const dom: number[] = [];
      const longest: number[] = [];
      const ready: number[] = [];
      const loadLongest: number[] = [];
      const frames: number[] = [];
      const pages: number[] = [];
      const long: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const page = await openTab(context);
        const { visibleMs, readyMs, domRows, loadLongestMs } = await openThread(
          page,
          seed.threadId,
          size,
        );
        visible.push(visibleMs);
        ready.push(readyMs);
        loadLongest.push(loadLongestMs);
        const scrolled = (await page.evaluate(SCROLL_THROUGH)) as Scrolled;
        // A thread longer than one page must have been scrolled through and paged in.
        if (scrolled.max < 0 || scrolled.frames < 10 || scrolled.pages === 0) {
          throw new Error(`the scroll did not go through the thread: ${JSON.stringify(scrolled)}`);
        }
        longest.push(scrolled.max);
        frames.push(scrolled.frames);
        pages.push(scrolled.pages);
        long.push(scrolled.long);
        dom.push(Math.max(domRows, await page.getByTestId("message").count()));
        await page.close();
      }
      const noScripts = await browser.newContext({
        baseURL: base,
        viewport: { width: 1280, height: 800 },
        javaScriptEnabled: false,
        storageState: await context.storageState(),
      });
      const floor = await paintWithoutScripts(noScripts, seed.threadId);
      await noScripts.close();
      const task = median(longest);
      rows.push([
        size.toLocaleString("en"),
        `${median(visible).toFixed(0)} ms`,
        `${floor.paint.toFixed(0)} ms (HTML in ${floor.html.toFixed(0)} ms)`,
        `${median(ready).toFixed(0)} ms`,
        `${median(loadLongest).toFixed(0)} ms`,
        median(dom),
        task === 0 ? "no task ≥ 50 ms" : `${task.toFixed(0)} ms`,
        longest.map((t) => (t === 0 ? "<50" : t.toFixed(0))).join(" / "),
        `${median(frames)} / ${median(pages)}`,
        long.join(" / "),
      ]);
      await context.close();
    } finally {
      if (server.pid) process.kill(-server.pid, "SIGTERM");
      await new Promise((r) => setTimeout(r, 1000));
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    }
  }
} finally {
  await browser.close();
}
const engine = databaseUrl ? "Postgres" : "PGlite";
console.log(
  `\n### Message list in Chromium, ${engine} (${new Date().toISOString().slice(0, 10)}; median of ${RUNS})\n`,
);
console.log(
  table(
    [
      "messages",
      "last message in view after",
      "first paint with JavaScript off",
      "list taken over after",
      "longest task while loading",
      "message rows in DOM",
      "longest main-thread task while scrolling",
      "longest task, each visit (ms)",
      "frames scrolled / page requests",
      "tasks ≥ 50 ms, each visit",
    ],
    rows,
  ),
);
