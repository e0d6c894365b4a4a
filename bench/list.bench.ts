// Message-list performance (issue 4) in Chromium: for 1,000-, 10,000- and 100,000-message
// threads (8 sessions, seeded before the server starts), the time until the last message is
// visible, the message rows in the DOM, and the longest main-thread task while scrolling the
// whole thread from top to bottom.
// Run: npx tsx bench/list.bench.ts   (uses the build in .next-bench; BENCH_BUILD=1 builds it first;
//      BENCH_SIZES=1000,10000 to choose sizes)
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { table } from "./support";

const sizes = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const env = { ...process.env, NEXT_DIST_DIR: ".next-bench", NEXT_TELEMETRY_DISABLED: "1" };

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
    const port = 3950;
    const dataDir = path.resolve(".data", `bench-list-${size}`);
    rmSync(dataDir, { recursive: true, force: true });
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
      { env: { ...env, BATON_DATA_DIR: dataDir }, stdio: "ignore" },
    );
    if (seeded.status !== 0) throw new Error(`seeding ${size} failed`);
    const seed = JSON.parse(readFileSync(seedFile, "utf8")) as {
      email: string;
      password: string;
      threadId: string;
    };
    const server = spawn("npx", ["next", "start", "-p", String(port), "-H", "127.0.0.1"], {
      env: { ...env, BATON_DATA_DIR: dataDir },
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
      const page = await context.newPage();
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill(seed.email);
      await page.getByLabel("Password").fill(seed.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText(seed.email).waitFor();
      await page.goto("/"); // warm the server's route code before timing the thread page

      const started = Date.now();
      await page.goto(`/chat/${seed.threadId}`, { waitUntil: "commit" });
      const last = page.getByText(`Message ${size}:`, { exact: false });
      await last.waitFor({ state: "visible", timeout: 60_000 });
      const visibleMs = Date.now() - started;
      const domRows = await page.getByTestId("message").count();

      // Longest main-thread task while scrolling from the top to the bottom.
      // Passed as source text: tsx would wrap a function's inner helpers in `__name(...)`,
      // which does not exist in the page.
      const longest = (await page.evaluate(`(async () => {
        const scroller = document.querySelector('[data-testid="message-scroller"]');
        if (!scroller) return -1;
        let max = 0;
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) max = Math.max(max, entry.duration);
        });
        observer.observe({ type: "longtask", buffered: false });
        const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));
        scroller.scrollTop = 0;
        for (let i = 0; i < 30; i++) await frame();
        const step = scroller.clientHeight * 2;
        for (let guard = 0; guard < 5000; guard++) {
          scroller.scrollTop = scroller.scrollTop + step;
          await frame();
          await frame();
          if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2) break;
        }
        for (let i = 0; i < 10; i++) await frame();
        observer.disconnect();
        return max;
      })()`)) as number;
      rows.push([
        size.toLocaleString("en"),
        `${visibleMs} ms`,
        domRows,
        longest < 0 ? "n/a" : longest === 0 ? "no task ≥ 50 ms" : `${longest.toFixed(0)} ms`,
      ]);
      await context.close();
    } finally {
      if (server.pid) process.kill(-server.pid, "SIGTERM");
      await new Promise((r) => setTimeout(r, 500));
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
}
console.log(`\n### Message list in Chromium (${new Date().toISOString().slice(0, 10)})\n`);
console.log(
  table(
    [
      "messages",
      "last message visible after",
      "message rows in DOM",
      "longest main-thread task while scrolling",
    ],
    rows,
  ),
);
