import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

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
  await expect(page.getByRole("navigation", { name: "Threads" })).toContainText(
    "Remember the blue notebook",
  );

  const fresh = await browser.newContext();
  try {
    const freshPage = await fresh.newPage();
    await new ChatPage(freshPage).openNew();
    await freshPage.goto("/sign-in");
    await freshPage.getByLabel("Email").fill(email);
    await freshPage.getByLabel("Password").fill(password);
    await freshPage.getByRole("button", { name: "Sign in" }).click();
    const nav = freshPage.getByRole("navigation", { name: "Threads" });
    await expect(nav).toContainText("Remember the blue notebook");
    await nav.getByRole("link", { name: /Remember the blue notebook/ }).click();
    await expect(freshPage).toHaveURL(new RegExp(threadId));
    await expect(new ChatPage(freshPage).userMessages.first()).toContainText(
      "Remember the blue notebook",
    );
  } finally {
    await fresh.close();
  }
});
