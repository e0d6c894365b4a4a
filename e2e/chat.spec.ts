import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { ChatPage } from "./pages/chat-page";

test("a new guest sees the reply stream in word by word and finds the thread after a reload", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  // A new chat's page asks nothing of the server that fails (each would be a console error).
  const failed: string[] = [];
  page.on("response", (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  await chat.openNew();
  await expect(page.getByTestId("offline-notice")).toContainText("offline demo model");

  await chat.sendMessage("Hello there, tell me something about streaming replies please");
  await expect(chat.userMessages.first()).toContainText("Hello there");

  // Sample the reply while it streams: it must grow through several successively longer texts.
  const seen: string[] = [];
  const reply = chat.lastAssistantText();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const text = (await reply.textContent().catch(() => null))?.trim() ?? "";
    if (text && text !== "Thinking…" && text !== seen.at(-1)) seen.push(text);
    if (await chat.send.isVisible()) break;
    await page.waitForTimeout(15);
  }
  const growing = seen.filter((t, i) => i === 0 || t.length > (seen[i - 1]?.length ?? 0));
  expect(growing.length).toBeGreaterThanOrEqual(3);
  for (let i = 1; i < growing.length; i++) {
    expect(growing[i]?.startsWith(growing[i - 1] ?? "\u0000")).toBe(true);
  }
  await chat.waitForReplyDone();
  const finalText = (await reply.textContent())?.trim() ?? "";
  expect(finalText.length).toBeGreaterThan(0);
  await expect(chat.assistantMessages.last().getByTestId("model-attribution")).toHaveText(
    "baton/local",
  );

  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  expect(failed).toEqual([]);
  const threadId = chat.threadId();
  await page.reload();
  await expect(chat.userMessages).toHaveCount(1);
  await expect(chat.assistantMessages).toHaveCount(1);
  await expect(chat.userMessages.first()).toContainText("Hello there");
  await expect(chat.lastAssistantText()).toHaveText(finalText);
  // The sidebar lists the thread under a short title made of the first message's salient words.
  await expect(page.getByRole("navigation", { name: "Threads" })).toContainText(
    "Something streaming replies",
  );

  // On the Postgres run, the messages are rows in the server's tables.
  if (process.env.DATABASE_URL) {
    const sql = postgres(process.env.DATABASE_URL, { max: 1 });
    try {
      const rows = await sql<{ role: string; status: string }[]>`
        select role, status from messages where thread_id = ${threadId} order by seq`;
      expect(rows.map((r) => [r.role, r.status])).toEqual([
        ["user", "complete"],
        ["assistant", "complete"],
      ]);
    } finally {
      await sql.end();
    }
  }
});

test("stopping a reply keeps the partial text, marked as stopped, after a reload", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.sendMessage(
    "Please write a long answer about the many reasons why careful engineers test their stop buttons in every chat application they build",
  );
  const reply = chat.lastAssistantText();
  await expect(reply).toHaveText(/\S+\s+\S+\s+\S+/); // a few words have arrived
  await chat.stop.click();
  await expect(chat.send).toBeVisible();
  await expect(chat.assistantMessages.last().getByTestId("stopped-badge")).toBeVisible();
  const partial = (await reply.textContent())?.trim() ?? "";
  expect(partial.length).toBeGreaterThan(0);

  // Give the server a moment to store what it had; then the partial text survives a reload.
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/threads/${chat.threadId()}`);
      const body = (await res.json()) as {
        messages: { role: string; metadata?: { status?: string } }[];
      };
      return body.messages.find((m) => m.role === "assistant")?.metadata?.status;
    })
    .toBe("partial");
  await page.reload();
  await expect(chat.assistantMessages).toHaveCount(1);
  await expect(chat.assistantMessages.last().getByTestId("stopped-badge")).toBeVisible();
  const reloaded = (await chat.lastAssistantText().textContent())?.trim() ?? "";
  expect(reloaded.length).toBeGreaterThan(0);
  // What was stored is what the user had seen (possibly a word or two more that was in flight).
  expect(reloaded.startsWith(partial.slice(0, Math.min(partial.length, 10)))).toBe(true);
});
