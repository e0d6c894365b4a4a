// Replies and resets that survive a reload: a reload (or a second tab) mid-reply follows the
// server's live stream to its end; the server's first HTML opens at the newest row and leaves
// out a reply still streaming (it arrives live); a reload during a reset brings back its
// placeholder, the queueing composer and the queued message, and both answers arrive under their
// questions; a cancelled reset reads "Cancelling…" until its outcome, then answers the trigger
// first.
// The server is this spec's own: a slow offline model (so a reply streams for seconds), a small
// context window and a slow handoff (so a reset stays in flight across a reload).
import { expect, type Page, test } from "@playwright/test";
import { SessionPage } from "./pages/session-page";
import {
  freshStore,
  type ServerProcess,
  type ServerStore,
  startServer,
} from "./support/server-process";

const FILLER =
  "Some ordinary chatter about the harbour, the trains, the weather and the long walk along the " +
  "river that we took yesterday afternoon before the rain started again and again";
const WORDS = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");

interface StoredMessage {
  id: string;
  role: "user" | "assistant";
  parts: { type: string; text?: string }[];
  metadata?: { seq?: number; status?: string; sessionId?: string };
}
interface ThreadView {
  messages: StoredMessage[];
  sessions: { id: string; number: number }[];
  live: unknown[];
  reset: unknown;
}

const textOf = (message: StoredMessage | undefined) =>
  (message?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => p.text ?? "")
    .join("");

let store: ServerStore;
let server: ServerProcess;

test.describe("@own-server live streams", () => {
  test.describe.configure({ mode: "serial" });

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    store = await freshStore();
    server = await startServer({
      env: {
        ...store.env,
        BATON_LOCAL_DELAY_MS: "120",
        BATON_LOCAL_CONTEXT_WINDOW: "2000",
        BATON_LOCAL_HANDOFF_DELAY_MS: "8000",
      },
    });
  });

  test.afterAll(async () => {
    await server?.stop();
    await store?.dispose();
  });

  async function open(page: Page): Promise<SessionPage> {
    const chat = new SessionPage(page);
    await page.goto(`${server.url}/`);
    await expect(chat.composer).toBeVisible();
    return chat;
  }

  async function thread(page: Page, threadId: string): Promise<ThreadView> {
    const response = await page.request.get(`${server.url}/api/threads/${threadId}?limit=200`);
    expect(response.status()).toBe(200);
    return (await response.json()) as ThreadView;
  }

  /** Waits until the thread API reports nothing live and no reset running. */
  async function idleThread(page: Page, threadId: string): Promise<ThreadView> {
    let view = await thread(page, threadId);
    await expect
      .poll(
        async () => {
          view = await thread(page, threadId);
          return view.live.length === 0 && view.reset === null;
        },
        { timeout: 90_000 },
      )
      .toBe(true);
    return view;
  }

  /** The list's rows must pair every question with an answer directly under it. */
  function expectAnsweredInPlace(rows: string[]) {
    rows.forEach((row, i) => {
      if (!row.startsWith("user:")) return;
      const next = rows[i + 1] ?? "";
      expect(next, `an answer under "${row.slice(0, 60)}"`).toMatch(/^assistant: \S/);
    });
  }

  test("a reload mid-reply keeps following it to the end, and a second tab sees it grow", async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    const chat = await open(page);
    await chat.sendMessage(`note ${WORDS}`);
    await expect(chat.lastAssistantText()).toContainText("word3");
    const threadId = chat.threadId();

    await page.reload();
    const reply = chat.lastAssistantText();
    await expect(reply).toContainText("word");
    const before = (await reply.textContent()) ?? "";
    // It keeps growing after the reload, with Stop offered while it does.
    await expect(chat.stop).toBeVisible();
    await expect
      .poll(async () => ((await reply.textContent()) ?? "").length)
      .toBeGreaterThan(before.length);
    await expect(reply).toContainText("word59", { timeout: 60_000 });
    await chat.waitForReplyDone();
    await expect(chat.assistantMessages.last().getByTestId("stopped-badge")).toHaveCount(0);

    const view = await idleThread(page, threadId);
    const stored = view.messages.at(-1);
    expect(stored?.role).toBe("assistant");
    expect(stored?.metadata?.status).toBe("complete");
    expect(((await reply.textContent()) ?? "").trim()).toBe(textOf(stored).trim());
    expect(textOf(stored).match(/word59/g)).toHaveLength(1);
    // One answer for the one question: nothing doubled.
    expect(view.messages.map((m) => m.role)).toEqual(["user", "assistant"]);

    // A second tab opened mid-reply follows the same stream.
    await chat.sendMessage(`note again ${WORDS}`);
    await expect(chat.lastAssistantText()).toContainText("word3");
    const second = await context.newPage();
    const other = new SessionPage(second);
    await second.goto(`${server.url}/chat/${threadId}`);
    const otherReply = other.lastAssistantText();
    await expect(otherReply).toContainText("again");
    const seen = (await otherReply.textContent()) ?? "";
    await expect
      .poll(async () => ((await otherReply.textContent()) ?? "").length)
      .toBeGreaterThan(seen.length);
    await expect(otherReply).toContainText("word59", { timeout: 60_000 });
    await chat.waitForReplyDone();
    await other.waitForReplyDone();
    const final = await idleThread(page, threadId);
    const last = textOf(final.messages.at(-1)).trim();
    expect(((await otherReply.textContent()) ?? "").trim()).toBe(last);
    expect(((await chat.lastAssistantText().textContent()) ?? "").trim()).toBe(last);
    expect(final.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    await second.close();
  });

  test("the first HTML shows the newest rows at the bottom and leaves out a reply still streaming", async ({
    page,
    context,
    browser,
  }) => {
    test.setTimeout(120_000);
    const chat = await open(page);
    // A reply of ~18 s, so it is still streaming after the page below is read on a busy machine.
    const words = Array.from({ length: 150 }, (_, i) => `word${i}`).join(" ");
    await chat.sendMessage(`note mid-stream ${words}`);
    await expect(chat.lastAssistantText()).toContainText("word3");
    const threadId = chat.threadId();
    const streaming = async () => (await thread(page, threadId)).live.length > 0;
    expect(await streaming()).toBe(true);

    // The page as the server sends it, before any script: the same guest, JavaScript off.
    const noScript = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await context.storageState(),
    });
    try {
      const html = await noScript.newPage();
      /** Opens the page's first HTML: the question in view, the newest row at the bottom. */
      const firstHtml = async () => {
        await html.goto(`${server.url}/chat/${threadId}`);
        const question = html.locator('[data-testid="message"][data-role="user"]').last();
        await expect(question).toContainText("note mid-stream word0");
        await expect(question).toBeInViewport();
        const scroller = await html.getByTestId("message-scroller").boundingBox();
        const newest = await html.getByTestId("message").last().boundingBox();
        if (!scroller || !newest) throw new Error("the first HTML has no scroller or no rows");
        // The newest row ends at the scroller's bottom (its padding aside), where the browser's
        // list will open it.
        expect(scroller.y + scroller.height - (newest.y + newest.height)).toBeLessThan(48);
        return html.locator('[data-testid="message"][data-role="assistant"]');
      };
      // Streaming now: its row arrives live, so the first HTML leaves it out rather than show a
      // snapshot the live stream would then replace.
      await expect(await firstHtml()).toHaveCount(0);
      // Read while the reply was still streaming: the server's answer is not a finished thread's.
      expect(await streaming()).toBe(true);

      await chat.waitForReplyDone();
      await idleThread(page, threadId);
      // Finished: the same page now holds the reply, under its question.
      const replies = await firstHtml();
      await expect(replies).toHaveCount(1);
      await expect(replies).toContainText("word149");
      await expect(replies).toBeInViewport();
    } finally {
      await noScript.close();
    }
  });

  test("a reload during a reset brings back its placeholder and queue, and both answers arrive", async ({
    page,
  }, testInfo) => {
    test.setTimeout(240_000);
    const chat = await open(page);
    await chat.sendMessage("remember the launch code is 4242");
    await chat.waitForReplyDone();
    await chat.chatUntilReset(FILLER);
    await expect(chat.queue).toBeVisible();
    await chat.composer.fill("what do you know?");
    await chat.queue.click();
    const queued = chat.userMessages.filter({ hasText: "what do you know?" });
    await expect(queued.getByTestId("queued-badge")).toBeVisible();
    const threadId = chat.threadId();

    await page.reload();
    // The page comes back as it was: placeholder, queueing composer, the queued message.
    await expect(chat.resetPlaceholder).toContainText("Resetting context…", { timeout: 2_000 });
    await expect(chat.queue).toBeVisible();
    await expect(chat.cancelReset).toBeVisible();
    await expect(queued.getByTestId("queued-badge")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("reloaded-reset-desktop.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(chat.resetPlaceholder).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("reloaded-reset-390.png") });
    await page.setViewportSize({ width: 1280, height: 720 });

    // Both answers arrive, without another reload.
    await expect(chat.divider(2)).toContainText("Session 2 started", { timeout: 60_000 });
    await expect(queued.getByTestId("queued-badge")).toBeHidden({ timeout: 60_000 });
    await chat.waitForReplyDone();
    const view = await idleThread(page, threadId);
    await chat.waitForReplyDone();
    await expect(page.getByTestId("stopped-badge")).toHaveCount(0);
    // The answer's own text: the reply that pinned the code names 4242 too.
    const knows = page
      .getByTestId("assistant-text")
      .filter({ hasText: "Here is everything" })
      .filter({ hasText: "4242" });
    await expect(knows.last()).toBeVisible();

    const live = await chat.allRows();
    expectAnsweredInPlace(live);
    expect(live.filter((row) => row === "user: what do you know?")).toHaveLength(1);
    // The stored thread agrees: every question has its complete answer directly under it.
    view.messages.forEach((message, i) => {
      if (message.role !== "user") return;
      const next = view.messages[i + 1];
      expect(next?.role).toBe("assistant");
      expect(next?.metadata?.status).toBe("complete");
      expect(textOf(next).trim()).not.toBe("");
    });

    await page.reload();
    await expect(chat.divider(2)).toBeAttached();
    await expect(knows.last()).toBeVisible();
    expect(await chat.allRows()).toEqual(live);
  });

  test("cancelling a threshold reset reads Cancelling… until it ends, then answers the trigger first", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const chat = await open(page);
    await chat.sendMessage("remember the bridge is red");
    await chat.waitForReplyDone();
    await chat.chatUntilReset(FILLER);
    const threadId = chat.threadId();
    const before = await thread(page, threadId);
    const sessionCount = before.sessions.length;
    await chat.composer.fill("what do you know?");
    await chat.queue.click();
    await expect(
      chat.userMessages.filter({ hasText: "what do you know?" }).getByTestId("queued-badge"),
    ).toBeVisible();

    // "Cancelling…" may last less than a poll's interval when the reset ends quickly: the page
    // notes every time it is drawn.
    await page.evaluate(() => {
      const seen = { cancelling: false };
      (window as unknown as { batonSeen: typeof seen }).batonSeen = seen;
      const look = () => {
        for (const button of document.querySelectorAll("button")) {
          if (button.textContent?.trim() === "Cancelling…") seen.cancelling = true;
        }
      };
      new MutationObserver(look).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await chat.cancelReset.click();
    const cancelling = page.getByRole("button", { name: "Cancelling…" });
    await expect
      .poll(() =>
        page.evaluate(
          () => (window as unknown as { batonSeen: { cancelling: boolean } }).batonSeen.cancelling,
        ),
      )
      .toBe(true);
    // Until the placeholder goes, the button never offers "Cancel reset" again.
    const states: string[] = [];
    await expect
      .poll(
        async () => {
          if (await chat.cancelReset.isVisible()) states.push("cancel");
          else if (await cancelling.isVisible()) states.push("cancelling");
          return chat.resetPlaceholder.count();
        },
        { timeout: 60_000, intervals: [50] },
      )
      .toBe(0);
    expect(states).not.toContain("cancel");
    await expect(chat.toast(/Context reset cancelled/)).toBeVisible();

    await chat.waitForReplyDone();
    const view = await idleThread(page, threadId);
    await chat.waitForReplyDone();
    // No new session: both are answered in session N, the trigger first.
    expect(view.sessions).toHaveLength(sessionCount);
    const tail = view.messages.slice(-4);
    expect(tail.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(textOf(tail[0])).toContain(FILLER.slice(0, 30));
    expect(textOf(tail[2])).toBe("what do you know?");
    expect(textOf(tail[3])).toContain("bridge is red");
    const current = view.sessions.at(-1)?.id;
    for (const message of tail) expect(message.metadata?.sessionId).toBe(current);
    for (const message of tail) expect(message.metadata?.status).toBe("complete");
    await expect(chat.dividers).toHaveCount(sessionCount - 1);

    const rows = await chat.allRows();
    expectAnsweredInPlace(rows);
    const trigger = rows.findLastIndex((row) => row.startsWith(`user: ${FILLER.slice(0, 30)}`));
    expect(rows.slice(trigger).map((row) => row.split(":")[0])).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(rows[trigger + 2]).toBe("user: what do you know?");
    await page.reload();
    await expect(chat.lastAssistantText()).toContainText("bridge is red");
    expect(await chat.allRows()).toEqual(rows);
  });
});
