import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { sameOrigin } from "./pages/same-origin";

test("a guest who signs up keeps its threads and sees them from a fresh browser", async ({
  page,
  browser,
}) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.sendMessage("Remember the blue notebook");
  await chat.waitForReplyDone();
  await expect(page).toHaveURL(/\/chat\//);
  const threadId = chat.threadId();

  const email = `user-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  const password = "correct horse battery";
  await page.getByRole("link", { name: /sign up/i }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText(email)).toBeVisible();
  // Listed under its short generated title.
  await expect(page.getByRole("navigation", { name: "Threads" })).toContainText("Blue notebook");

  const fresh = await browser.newContext();
  try {
    const freshPage = await fresh.newPage();
    await new ChatPage(freshPage).openNew();
    await freshPage.goto("/sign-in");
    await freshPage.getByLabel("Email").fill(email);
    await freshPage.getByLabel("Password").fill(password);
    await freshPage.getByRole("button", { name: "Sign in" }).click();
    const nav = freshPage.getByRole("navigation", { name: "Threads" });
    await expect(nav).toContainText("Blue notebook");
    await nav.getByRole("link", { name: /Blue notebook/ }).click();
    await expect(freshPage).toHaveURL(new RegExp(threadId));
    await expect(new ChatPage(freshPage).userMessages.first()).toContainText(
      "Remember the blue notebook",
    );
  } finally {
    await fresh.close();
  }
});

test("signing in from a guest with a handoff key the account already has keeps both and says so once", async ({
  page,
  browser,
}) => {
  const key = `trip-${Date.now()}`;
  const email = `user-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  const password = "correct horse battery";
  await new ChatPage(page).openNew();
  await page.getByRole("link", { name: /sign up/i }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText(email)).toBeVisible();
  const own = await page.request.post("/api/handoffs", {
    headers: sameOrigin(page),
    data: { key, artifact: { goal: "The account's own trip", state_summary: "Booked" } },
  });
  expect(own.status()).toBe(201);

  // A phone-sized guest browser with a handoff under the same key signs in to that account.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const guest = await phone.newPage();
    await new ChatPage(guest).openNew();
    const written = await guest.request.post("/api/handoffs", {
      headers: sameOrigin(guest),
      data: { key, artifact: { goal: "The guest's trip", state_summary: "Half planned" } },
    });
    expect(written.status()).toBe(201);
    await guest.goto("/sign-in");
    await guest.getByLabel("Email").fill(email);
    await guest.getByLabel("Password").fill(password);
    await guest.getByRole("button", { name: "Sign in" }).click();

    const notice = guest.getByText(
      `Your guest handoff ${key} was kept as ${key}.guest because your account already had one with that key.`,
    );
    await expect(notice).toBeVisible();
    const box = await notice.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    const list = guest.getByRole("region", { name: "Continue where you left off" });
    await expect(list).toContainText("The account's own trip");
    await expect(list).toContainText("The guest's trip");

    await guest.getByRole("button", { name: "Close toast" }).click();
    await expect(notice).toHaveCount(0);
    await guest.reload();
    await expect(list).toContainText("The guest's trip");
    await guest.waitForLoadState("networkidle");
    await expect(notice).toHaveCount(0);
  } finally {
    await phone.close();
  }
});
