import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { sameOrigin } from "./pages/same-origin";

test("another guest cannot see a thread, and no session means 401", async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.sendMessage("This thread is private to me");
  await chat.waitForReplyDone();
  await expect(page).toHaveURL(/\/chat\//);
  const threadId = chat.threadId();
  expect((await page.request.get(`/api/threads/${threadId}`)).status()).toBe(200);

  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    const otherChat = new ChatPage(otherPage);
    await otherChat.openNew(); // becomes a different guest
    const response = await otherPage.goto(`/chat/${threadId}`);
    expect(response?.status()).toBe(404);
    await expect(otherPage.getByText("This thread is private to me")).toHaveCount(0);
    await expect(otherPage.getByRole("heading", { name: "Not found" })).toBeVisible();
    const api = await otherPage.request.get(`/api/threads/${threadId}`);
    expect(api.status()).toBe(404);
    expect(await api.json()).toMatchObject({ error: { code: "not_found:thread" } });
    // Nor can it write into the thread through the chat endpoint.
    const post = await otherPage.request.post("/api/chat", {
      headers: sameOrigin(otherPage),
      data: {
        id: threadId,
        trigger: "submit-message",
        message: { id: "intruder-1", role: "user", parts: [{ type: "text", text: "hi" }] },
      },
    });
    expect(post.status()).toBe(404);
    const list = (await (await otherPage.request.get("/api/threads")).json()) as {
      threads: { id: string }[];
    };
    expect(list.threads.map((t) => t.id)).not.toContain(threadId);
  } finally {
    await other.close();
  }

  const anonymous = await playwright.request.newContext({ baseURL });
  try {
    const res = await anonymous.get(`/api/threads/${threadId}`);
    expect(res.status()).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: "unauthorized:session" } });
    expect((await anonymous.get("/api/threads")).status()).toBe(401);
  } finally {
    await anonymous.dispose();
  }
  // The owner's thread is untouched.
  await page.reload();
  await expect(chat.userMessages).toHaveCount(1);
});
