// The first visit with the README's first command (`npm run dev`): one guest account per browser
// (React runs effects twice in development; two tabs may open at once), the first message's
// thread still there after a reload, and Stop that stops. One development server for the file,
// on a store of its own, whose guest accounts are counted at the end.
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { type DevServer, guestAccountIds, startDevServer } from "./support/dev-server";
import { freshStore, type ServerStore } from "./support/server-process";

test.describe.configure({ mode: "serial" });

let store: ServerStore;
let dev: DevServer;
const contexts: BrowserContext[] = [];
/** The guest each fresh browser ended up as. */
const guests: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(360_000);
  store = await freshStore();
  dev = await startDevServer(store, { BATON_LOCAL_DELAY_MS: "60" });
});

test.afterAll(async () => {
  for (const context of contexts) await context.close();
  await dev?.stop();
  await store?.dispose();
});

async function freshBrowser(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: dev.url });
  contexts.push(context);
  return context;
}

/** Counts the guest sign-ins the browser sends. */
function countGuestSignIns(context: BrowserContext): () => number {
  let count = 0;
  context.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/api/auth/sign-in/anonymous"))
      count++;
  });
  return () => count;
}

async function sessionUserId(page: Page): Promise<string> {
  const response = await page.request.get("/api/auth/get-session");
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { user?: { id: string } } | null;
  expect(body?.user?.id, "the browser holds a session").toBeTruthy();
  return body?.user?.id ?? "";
}

test("a first visit makes one guest, and its first message's thread opens after a reload @dev-server", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const context = await freshBrowser(browser);
  const signIns = countGuestSignIns(context);
  const chat = new ChatPage(await context.newPage());
  await chat.page.goto("/");
  await expect(chat.composer).toBeVisible({ timeout: 240_000 });
  await chat.sendMessage("Hello from the first visit");
  await expect(chat.page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/, { timeout: 120_000 });
  // A development server compiles each route on its first request: slow on a busy machine.
  await chat.waitForReplyDone(120_000);
  const threadId = chat.threadId();

  await chat.page.reload();
  await expect(chat.userMessages.first()).toHaveText(/Hello from the first visit/, {
    timeout: 120_000,
  });
  await expect(chat.page.getByText("does not exist or is not yours")).toHaveCount(0);
  await expect(
    chat.page.getByRole("navigation", { name: "Threads" }).locator(`a[href="/chat/${threadId}"]`),
  ).toBeVisible();
  expect(chat.threadId()).toBe(threadId);
  expect(signIns()).toBe(1);
  guests.push(await sessionUserId(chat.page));
});

test("two tabs opened at once on a fresh browser share one guest @dev-server", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const context = await freshBrowser(browser);
  const signIns = countGuestSignIns(context);
  const tabs = [new ChatPage(await context.newPage()), new ChatPage(await context.newPage())];
  await Promise.all(tabs.map((tab) => tab.page.goto("/")));
  for (const tab of tabs) await expect(tab.composer).toBeVisible({ timeout: 240_000 });
  const [first, second] = await Promise.all(tabs.map((tab) => sessionUserId(tab.page)));
  expect(second).toBe(first);
  expect(signIns()).toBe(1);
  guests.push(first ?? "");
});

test("Stop ends the reply within a second: the text stops growing and the Stop button goes @dev-server", async () => {
  test.setTimeout(300_000);
  const context = contexts[0];
  test.skip(!context, "needs the first visit's browser");
  const chat = new ChatPage(await (context as BrowserContext).newPage());
  // The page asks for the stop route once it is idle, so that the development server compiles
  // it before the first Stop (compiling it on the Stop took seconds on a busy machine).
  const warmed = chat.page.waitForResponse(
    (r) => r.request().method() === "HEAD" && /\/api\/chat\/[^/]+\/stop$/.test(r.url()),
    { timeout: 240_000 },
  );
  await chat.page.goto("/");
  await expect(chat.composer).toBeVisible({ timeout: 120_000 });
  expect((await warmed).status()).toBe(204);
  // A reply of ~35 s (the offline model repeats a note's words), so it is still streaming when
  // Stop is pressed even on a busy machine.
  const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(" ");
  await chat.sendMessage(`note the brakes ${words}`);
  const text = chat.lastAssistantText();
  await expect(text).toContainText("word3", { timeout: 120_000 });
  await expect(chat.stop).toBeVisible();
  expect(await text.textContent(), "still streaming when Stop is pressed").not.toContain("word299");
  await chat.stop.click();
  await expect(chat.stop).toBeHidden({ timeout: 1_000 });
  await expect(chat.assistantMessages.last().getByTestId("stopped-badge")).toBeVisible();
  // Whatever was already on its way lands within the second; after that nothing more arrives.
  await chat.page.waitForTimeout(1_000);
  const settled = (await text.textContent()) ?? "";
  await chat.page.waitForTimeout(2_000);
  expect((await text.textContent()) ?? "").toBe(settled);
  expect(settled).not.toContain("word299");
  await expect(chat.send).toBeVisible();
});

test("each fresh browser made exactly one guest account @dev-server", async () => {
  test.setTimeout(120_000);
  expect(guests).toHaveLength(2);
  await dev.stop();
  expect(await guestAccountIds(store)).toEqual([...guests].sort());
});
