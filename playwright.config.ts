import { defineConfig, devices, type PlaywrightTestConfig } from "@playwright/test";
import { E2E_RATE_LIMITS } from "./e2e/support/server-process";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${PORT}`;
// A second server whose offline model has a tiny context window and a slow handoff, so tests can
// watch (and act during) a context reset. Specs tagged @reset-server run against it.
const RESET_PORT = PORT + 1;
const resetURL = `http://127.0.0.1:${RESET_PORT}`;
// A third server whose data folder is seeded with a 10,000-message, 8-session thread before it
// starts (its credentials are in .data/e2e-<port>/seed.json). Specs tagged @long-thread use it.
const LONG_PORT = PORT + 2;
const longURL = `http://127.0.0.1:${LONG_PORT}`;

// Every e2e browser is a guest or account from 127.0.0.1, and specs send bursts (many guests,
// sign-ups and messages a minute): the servers raise Baton's rate limits well past that. Limiting
// stays on; tests/db/rate-limit-auth.test.ts and lib/http/rate-limit*.test.ts cover it.
// Specs tagged @own-server start (and kill) servers of their own with the same limits
// (e2e/support/server-process.ts), and specs tagged @dev-server a `next dev` of their own
// (e2e/support/dev-server.ts). E2E_OWN_SERVER_ONLY=1 runs only those two kinds, without starting
// the shared servers below, which saves their start-up while working on such a spec.
const ownServerOnly = process.env.E2E_OWN_SERVER_ONLY === "1";
type WebServers = Extract<PlaywrightTestConfig["webServer"], unknown[]>;
const sharedServers = (servers: WebServers): WebServers => (ownServerOnly ? [] : servers);

// The system Chromium where there is one (this project's machines cannot download browsers);
// elsewhere `npx playwright install chromium` and PLAYWRIGHT_BUNDLED_BROWSER=1 use Playwright's.
const executablePath = process.env.PLAYWRIGHT_BUNDLED_BROWSER
  ? undefined
  : (process.env.CHROMIUM_PATH ?? "/usr/bin/chromium");

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"] },
      grepInvert: /@reset-server|@long-thread|@own-server|@dev-server/,
    },
    {
      name: "long-thread",
      use: { ...devices["Desktop Chrome"], baseURL: longURL },
      grep: /@long-thread/,
    },
    {
      name: "reset-server",
      use: { ...devices["Desktop Chrome"], baseURL: resetURL },
      grep: /@reset-server/,
    },
    {
      name: "own-server",
      use: { ...devices["Desktop Chrome"] },
      grep: /@own-server/,
    },
    {
      // `next dev` on a store of its own (e2e/support/dev-server.ts), as the README's first
      // command runs it: on the embedded database, so only in the PGlite pass (a development
      // server on the Postgres server tests nothing the pass's other projects do not).
      name: "dev-server",
      use: { ...devices["Desktop Chrome"] },
      grep: /@dev-server/,
    },
  ]
    .filter((project) => !ownServerOnly || ["own-server", "dev-server"].includes(project.name))
    .filter((project) => project.name !== "dev-server" || !process.env.DATABASE_URL),
  webServer: sharedServers([
    {
      // A production build on its own, fresh data folder (see e2e/serve.mjs).
      command: `node e2e/serve.mjs ${PORT}`,
      url: `${baseURL}/api/health`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: E2E_RATE_LIMITS,
    },
    {
      command: `node e2e/serve.mjs ${RESET_PORT}`,
      url: `${resetURL}/api/health`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        ...E2E_RATE_LIMITS,
        // The built-in tool definitions every call carries take ~760 tokens of this.
        BATON_LOCAL_CONTEXT_WINDOW: "2000",
        BATON_LOCAL_HANDOFF_DELAY_MS: "2500",
        BATON_LOCAL_DELAY_MS: "20",
        // Specs here watch a reset while its handoff is written; one drafted ahead would commit
        // before they look (drafting ahead: tests/db/draft-ahead.test.ts, bench/reset-ahead).
        BATON_DRAFT_THRESHOLD: "off",
      },
    },
    {
      command: `node e2e/serve.mjs ${LONG_PORT} --seed 10000:8`,
      url: `${longURL}/api/health`,
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: E2E_RATE_LIMITS,
    },
  ]),
});
