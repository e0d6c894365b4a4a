import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

const FILLER =
  "Some ordinary chatter about the harbour, the trains, the weather and the long walk along the " +
  "river that we took yesterday afternoon before the rain started again";

interface StreamPart {
  type: string;
  data?: { event?: string; sessionNumber?: number };
}

function parseSse(body: string): StreamPart[] {
  return body
    .split("\n\n")
    .map((c) => c.trim())
    .filter((c) => c.startsWith("data: ") && c !== "data: [DONE]")
    .map((c) => JSON.parse(c.slice(6)) as StreamPart);
}

async function messageTexts(chat: ChatPage): Promise<string[]> {
  return chat.messages.evaluateAll((rows) =>
    rows.map((row) => `${row.getAttribute("data-role")}: ${(row.textContent ?? "").trim()}`),
  );
}

test.describe("@reset-server context reset", () => {
  test("a fact given before the threshold survives the reset, live and after a reload", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const chat = new ChatPage(page);
    const streams: StreamPart[][] = [];
    page.on("response", async (response) => {
      if (response.url().endsWith("/api/chat") && response.request().method() === "POST") {
        streams.push(parseSse(await response.text().catch(() => "")));
      }
    });

    await chat.openNew();
    await chat.sendMessage("Let's plan the office move together");
    await chat.waitForReplyDone();
    await chat.sendMessage("remember the locker code is 7319");
    await chat.waitForReplyDone();

    const resetTurn = async () =>
      streams.findIndex((parts) => parts.some((p) => p.type === "data-context-reset"));
    let turnsAfterFact = 0;
    while ((await resetTurn()) < 0 && turnsAfterFact < 15) {
      await chat.sendMessage(`${FILLER} (${turnsAfterFact + 1})`);
      await chat.waitForReplyDone();
      turnsAfterFact += 1;
      await expect.poll(() => streams.length).toBe(turnsAfterFact + 2);
    }
    const index = await resetTurn();
    expect(index).toBeGreaterThanOrEqual(0);
    // The fact was given at least three turns before the turn that crossed the threshold.
    expect(index - 1).toBeGreaterThanOrEqual(3);
    const events = (streams[index] ?? [])
      .filter((p) => p.type === "data-context-reset")
      .map((p) => p.data?.event);
    expect(events).toContain("reset_starting");
    expect(events).toContain("reset_complete");

    await chat.sendMessage("what do you know?");
    await chat.waitForReplyDone();
    await expect(chat.lastAssistantText()).toContainText("7319");

    const live = await messageTexts(chat);
    const threadId = chat.threadId();
    const view = (await (await page.request.get(`/api/threads/${threadId}`)).json()) as {
      sessions: { number: number; trigger: string }[];
    };
    // The first reset came from the threshold. In this server's small window the built-in tool
    // definitions take ~40%, so a later turn may cross the threshold again: any further session
    // must come from the threshold too, and the fact must survive it (checked above and below).
    const sessions = view.sessions.map((s) => [s.number, s.trigger]);
    expect(sessions.slice(0, 2)).toEqual([
      [1, "initial"],
      [2, "threshold"],
    ]);
    for (const [number, trigger] of sessions.slice(2)) {
      expect([number, trigger]).toEqual([number, "threshold"]);
    }

    await page.reload();
    await expect(chat.userMessages.last()).toContainText("what do you know?");
    await expect(chat.lastAssistantText()).toContainText("7319");
    const reloaded = await messageTexts(chat);
    expect(reloaded).toEqual(live);
  });
});
