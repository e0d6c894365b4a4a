// Nothing lost when the server dies: a production server is SIGKILLed while a context reset
// writes its handoff (one message queued behind it), and while a reply streams. After a restart
// every message is answered under its question, and the interrupted reply keeps what the user
// saw and can be continued. On the Postgres pass two servers recover the same orphans at once,
// and each message is answered exactly once.
import { randomUUID } from "node:crypto";
import { expect, type Locator, type Page, test } from "@playwright/test";
import postgres from "postgres";
import { ChatClient, type StreamPart, type ThreadView, textOf } from "./support/chat-client";
import {
  freePort,
  freshStore,
  type ServerProcess,
  type ServerStore,
  startServer,
} from "./support/server-process";

const FILLER =
  "Here is some ordinary chatter about the weather, the harbour, the trains and the long walk " +
  "along the river that we took yesterday afternoon before the rain started again";

const isReset = (event: string) => (p: StreamPart) =>
  p.type === "data-context-reset" && p.data?.event === event;

/** Every user message has a complete, non-empty assistant answer directly under it. */
function expectAnsweredInPlace(view: ThreadView) {
  const rows = view.messages;
  rows.forEach((row, i) => {
    if (row.role !== "user") return;
    const next = rows[i + 1];
    expect(next?.role, `an answer under "${textOf(row).slice(0, 40)}"`).toBe("assistant");
    expect(next?.metadata?.status).toBe("complete");
    expect(textOf(next).trim()).not.toBe("");
  });
  expect(rows.filter((r) => r.metadata?.status === "queued")).toEqual([]);
  const numbers = view.sessions.map((s) => s.number);
  expect(new Set(numbers).size).toBe(numbers.length);
}

test("SIGKILL while a reset writes its handoff: after a restart every message is answered, under its question @own-server", async ({
  page,
}, testInfo) => {
  test.setTimeout(360_000);
  const store: ServerStore = await freshStore();
  const servers: ServerProcess[] = [];
  const env = {
    ...store.env,
    BATON_LOCAL_CONTEXT_WINDOW: "2000",
    BATON_LOCAL_HANDOFF_DELAY_MS: "6000",
    BATON_LOCAL_DELAY_MS: "10",
  };
  try {
    const port = await freePort();
    const first = await startServer({ env, port });
    servers.push(first);
    const guest = await ChatClient.guest(first.url);
    const threadId = randomUUID();

    // Fill the context until a message's turn starts a reset, then queue one behind it.
    let resetting = false;
    for (let i = 0; i < 15 && !resetting; i++) {
      const turn = await guest.send(threadId, `${FILLER} (${i})`);
      expect(turn.status).toBe(200);
      const blocked = await turn.until(
        (p) => isReset("input_blocked")(p) || p.type === "finish" || p.type === "error",
      );
      resetting = blocked?.type === "data-context-reset";
      if (!resetting) await turn.finished;
    }
    expect(resetting, "a message reached the reset threshold").toBe(true);
    const queued = await guest.send(threadId, "what do you know?");
    expect(queued.status).toBe(200);
    expect(await queued.until((p) => p.type === "data-queued")).not.toBeNull();

    first.kill("SIGKILL");
    await first.waitForExit();

    // On Postgres two servers come up on the same database and both recover at once.
    const restarted = [await startServer({ env, port })];
    if (store.databaseUrl) restarted.push(await startServer({ env }));
    servers.push(...restarted);
    const readyAt = Date.now();
    const again = guest.on(restarted[0]?.url ?? first.url);
    // The page shows the orphans as being answered (the recovery's reset takes 6 s), then the
    // answers, without a reload.
    await page.context().addCookies(guest.cookiesFor(again.base));
    await page.goto(`${again.base}/chat/${threadId}`);
    await expect(page.getByTestId("answering-indicator").first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("answering.png") });
    const next = await again.send(threadId, "remember the buoy is red");
    expect(next.status).toBe(200);
    expect(await next.until((p) => p.type === "start")).not.toBeNull();
    expect(Date.now() - readyAt, "a new message is accepted without waiting").toBeLessThan(10_000);

    const view = await again.waitUntilIdle(threadId, 180_000);
    expectAnsweredInPlace(view);
    await expect(page.getByTestId("answering-indicator")).toHaveCount(0, { timeout: 30_000 });
    // The new message came from another client: the page shows it (and its answer) on a reload.
    await page.reload();
    await expect(page.getByText("remember the buoy is red")).toBeVisible();
    expect(view.messages.filter((m) => m.role === "user")).toHaveLength(
      view.messages.filter((m) => m.role === "assistant").length,
    );

    if (store.databaseUrl) {
      // Exactly once: one completed run per user message, whichever server ran it.
      const sql = postgres(store.databaseUrl, { max: 1, onnotice: () => {} });
      try {
        const rows = await sql<{ request: string; completed: number }[]>`
          select request_message_id as request, count(*) filter (where status = 'completed')::int as completed
          from runs where thread_id = ${threadId} group by request_message_id`;
        const userIds = view.messages.filter((m) => m.role === "user").map((m) => m.id);
        for (const id of userIds) {
          expect(rows.find((r) => r.request === id)?.completed, id).toBe(1);
        }
        const instances = await sql<{ n: number }[]>`
          select count(distinct instance_id)::int as n from runs
          where thread_id = ${threadId} and status = 'completed'`;
        expect(instances[0]?.n).toBeGreaterThanOrEqual(1);
      } finally {
        await sql.end();
      }
    }
  } finally {
    for (const server of servers) await server.stop();
    await store.dispose();
  }
});

test("SIGKILL mid-reply: the stored reply keeps what was streamed, marked interrupted, and Continue completes it @own-server", async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const store = await freshStore();
  const servers: ServerProcess[] = [];
  const env = { ...store.env, BATON_LOCAL_DELAY_MS: "150" };
  try {
    const port = await freePort();
    const first = await startServer({ env, port });
    servers.push(first);
    const guest = await ChatClient.guest(first.url);
    const threadId = randomUUID();
    const fact = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");

    // `note`, not `remember`: a remembered fact is pinned by a tool call before the reply.
    const turn = await guest.send(threadId, `note ${fact}`);
    expect(turn.status).toBe(200);
    const firstDelta = await turn.until((p) => p.type === "text-delta");
    expect(firstDelta).not.toBeNull();
    await new Promise((r) => setTimeout(r, 3_000));
    const killedAt = Date.now();
    first.kill("SIGKILL");
    await first.waitForExit();
    const streamedBefore = turn.parts
      .filter((p) => p.part.type === "text-delta" && p.at < killedAt - 1_000)
      .map((p) => p.part.delta ?? "")
      .join("");
    expect(turn.parts.some((p) => p.part.type === "finish")).toBe(false);
    expect(streamedBefore.length).toBeGreaterThan(10);

    const second = await startServer({ env, port });
    servers.push(second);
    const view = await guest.waitUntilIdle(threadId);
    const reply = view.messages.at(-1);
    expect(reply?.role).toBe("assistant");
    expect(reply?.metadata?.status).toBe("interrupted");
    const kept = textOf(reply);
    expect(kept.startsWith(streamedBefore)).toBe(true);

    // What the user sees on opening the thread: the kept text, the notice and its two choices.
    await page.context().addCookies(guest.cookiesFor(second.url));
    await page.goto(`${second.url}/chat/${threadId}`);
    const notice = page.getByTestId("interrupted-notice");
    await expect(notice).toContainText("This reply was interrupted");
    await expect(
      page.getByText(streamedBefore.trim().split(" ").slice(0, 5).join(" ")),
    ).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("interrupted-desktop.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(notice.getByRole("button", { name: "Continue" })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("interrupted-390.png") });
    await notice.getByRole("button", { name: "Continue" }).click();
    // The reply's own text (the question holds the words too), once the Continue has written it.
    await expect(page.getByTestId("assistant-text").filter({ hasText: "word39" })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByTestId("interrupted-notice")).toHaveCount(0);

    const after = await guest.waitUntilIdle(threadId);
    const done = after.messages.at(-1);
    expect(done?.id).toBe(reply?.id);
    expect(done?.metadata?.status).toBe("complete");
    const text = textOf(done);
    expect(text.startsWith(kept)).toBe(true);
    expect(text).toContain("word39");
    expect(after.messages.filter((m) => m.role === "assistant")).toHaveLength(1);
  } finally {
    for (const server of servers) await server.stop();
    await store.dispose();
  }
});

/** What a test does around the kill of the server streaming a reply to its page. */
interface AroundKill {
  /** Runs while the reply streams, before the kill. */
  beforeKill?: (reply: Locator) => Promise<void>;
  /** Runs once the page shows the reply interrupted, before a server comes back. */
  afterKill: (sent: string) => Promise<void>;
}

/**
 * A guest's page asks for a 40-word reply and the server streaming it is SIGKILLed. Once the
 * page shows the reply interrupted, a server comes back on the same address: without a reload
 * the page re-reads the thread and shows the stored reply, and Continue completes it, once.
 * Returns the thread as stored at the end.
 */
async function killMidReplyThenContinue(page: Page, around: AroundKill): Promise<ThreadView> {
  const store = await freshStore();
  const servers: ServerProcess[] = [];
  const env = { ...store.env, BATON_LOCAL_DELAY_MS: "150" };
  try {
    const port = await freePort();
    const first = await startServer({ env, port });
    servers.push(first);
    const guest = await ChatClient.guest(first.url);
    await page.context().addCookies(guest.cookiesFor(first.url));
    await page.goto(`${first.url}/`);
    const composer = page.getByRole("textbox", { name: "Message" });
    const fact = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    // `note`, not `remember`: a remembered fact is pinned by a tool call before the reply.
    const sent = `note ${fact}`;
    await composer.fill(sent);
    await composer.press("Enter");
    const reply = page.locator('[data-testid="message"][data-role="assistant"]').last();
    await expect(reply).toContainText("word3");
    const threadId = page.url().split("/chat/")[1] ?? "";
    expect(threadId).not.toBe("");

    await around.beforeKill?.(reply);
    first.kill("SIGKILL");
    await first.waitForExit();
    const notice = page.getByTestId("interrupted-notice");
    await expect(notice).toBeVisible();
    await around.afterKill(sent);

    const second = await startServer({ env, port });
    servers.push(second);
    const view = await guest.waitUntilIdle(threadId);
    const stored = view.messages.at(-1);
    expect(stored?.metadata?.status).toBe("interrupted");
    await expect
      .poll(async () => ((await reply.textContent()) ?? "").includes(textOf(stored).trim()), {
        timeout: 45_000,
      })
      .toBe(true);
    await notice.getByRole("button", { name: "Continue" }).click();
    await expect(reply).toContainText("word39", { timeout: 30_000 });
    const after = await guest.waitUntilIdle(threadId);
    expect(after.messages.at(-1)?.metadata?.status).toBe("complete");
    expect(textOf(after.messages.at(-1)).match(/word39/g)).toHaveLength(1);
    return after;
  } finally {
    for (const server of servers) await server.stop();
    await store.dispose();
  }
}

test("SIGKILL while a reloaded page follows a reply: it reads interrupted, not Stopped, and takes the stored copy once a server is back @own-server", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await killMidReplyThenContinue(page, {
    // The reloaded page follows the server's live stream, and then that server dies.
    beforeKill: async (reply) => {
      await page.reload();
      await expect(reply).toContainText("word6");
    },
    afterKill: async () => {
      await expect(page.getByTestId("stopped-badge")).toHaveCount(0);
    },
  });
});

test("SIGKILL while the page's own request streams the reply: it reads interrupted with Continue, not failed, and takes the stored copy once a server is back @own-server", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const after = await killMidReplyThenContinue(page, {
    afterKill: async (sent) => {
      await expect(page.getByText("The reply failed")).toHaveCount(0);
      await expect(page.getByText(sent)).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath("own-request-killed.png") });
    },
  });
  expect(after.messages.filter((m) => m.role === "user")).toHaveLength(1);
});
