import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { SessionPage } from "./pages/session-page";

// Runs against a server started with a slow handoff and a small context window, e.g.
// BATON_LOCAL_HANDOFF_DELAY_MS=2500 BATON_LOCAL_CONTEXT_WINDOW=2000, so a threshold reset comes
// within a few turns and stays in flight long enough to queue a message and to cancel it.

const FILLER =
  "Some ordinary chatter about the harbour, the trains, the weather and the long walk along the " +
  "river that we took yesterday afternoon before the rain started again and again";

test.describe("@reset-server session UX", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"] });

  test("a live reset shows its placeholder, queues what is sent meanwhile, and reloads the same", async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const chat = new SessionPage(page);
    await chat.openNew();
    // Never blank: a new thread's meter already shows the window it will fill.
    await expect(chat.meter).toHaveAttribute("aria-valuenow", "0");
    await expect(chat.meter.locator("..")).toContainText("reset at 80%");

    await chat.sendMessage("remember the launch code is 4242");
    await chat.waitForReplyDone();
    await expect(chat.meter).not.toHaveAttribute("aria-valuenow", "0");
    await expect(chat.navigator).toBeHidden();

    await chat.chatUntilReset(FILLER);
    // One wait indicator: the placeholder says what is happening, no "Thinking…" beside it
    // (read in one go, while the reset is still running).
    const indicators = await page.evaluate(() => ({
      placeholder: document.querySelector("[data-testid='reset-placeholder']") !== null,
      thinking: [...document.querySelectorAll("span")].some((el) => el.textContent === "Thinking…"),
    }));
    expect(indicators).toEqual({ placeholder: true, thinking: false });
    await expect(chat.resetPlaceholder).toContainText("Resetting context…");
    await expect(chat.cancelReset).toBeVisible();
    // Input is blocked: the composer stays typeable and Send becomes Queue.
    await expect(chat.queue).toBeVisible();
    await expect(chat.composer).toBeEditable();
    await chat.composer.fill("what do you know?");
    await chat.queue.click();
    const queued = chat.userMessages.filter({ hasText: "what do you know?" });
    await expect(queued.getByTestId("queued-badge")).toBeVisible();

    // The placeholder becomes the divider with its handoff card; a toast says what happened.
    await expect(chat.divider(2)).toContainText("Session 2 started", { timeout: 30_000 });
    await expect(chat.resetPlaceholder).toBeHidden();
    await expect(chat.toast("Session 2 started — context was reset")).toBeVisible();
    await expect(chat.divider(2)).toContainText("context threshold reached");

    // The queued message is answered in the new session, from what the handoff carried.
    await expect(queued.getByTestId("queued-badge")).toBeHidden({ timeout: 30_000 });
    await chat.waitForReplyDone();
    // The answer's own text: the reply that pinned the code names 4242 too.
    const knows = page
      .getByTestId("assistant-text")
      .filter({ hasText: "Here is everything" })
      .filter({ hasText: "4242" });
    await expect(knows.last()).toBeVisible();

    const toggle = chat.divider(2).getByRole("button", { name: "Expand handoff for session 2" });
    await toggle.click();
    const details = chat.divider(2).getByTestId("handoff-details");
    await expect(details).toBeVisible();
    for (const heading of [
      "Goal",
      "Completed work",
      "In progress",
      "Remaining tasks",
      "Key decisions",
      "Confirmed facts",
      "Unknowns",
      "Must preserve",
      "Files",
      "Next step",
      "Needs authorization",
    ]) {
      await expect(details.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    }
    await expect(details).toContainText("the launch code is 4242");
    await expect(
      chat.divider(2).getByRole("button", { name: "Collapse handoff for session 2" }),
    ).toBeVisible();
    // Navigator: two sessions, the one in view marked.
    await chat.scroller.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect(chat.navigator.getByRole("button", { name: "Session 2" })).toHaveAttribute(
      "aria-current",
      "true",
    );

    const live = await chat.allRows();
    const divider = live.indexOf("divider 2");
    expect(divider).toBeGreaterThan(0);
    const queuedAt = live.indexOf("user: what do you know?");
    expect(queuedAt).toBeGreaterThan(divider);
    expect(
      live.slice(queuedAt + 1).some((row) => row.startsWith("assistant:") && row.includes("4242")),
    ).toBe(true);

    await page.reload();
    await expect(chat.divider(2)).toBeAttached();
    await expect(knows.last()).toBeVisible();
    expect(await chat.allRows()).toEqual(live);
    // The divider says how the reset went; the card answers its five questions first.
    await expect(chat.divider(2).getByTestId("reset-details")).toContainText(
      /context \d+% → \d+% · reset took [\d.]+ m?s · handoff written by the model · [\d,]+ tokens to write/,
    );
    const answers = chat.divider(2).getByRole("definition");
    await expect(chat.divider(2).getByRole("term")).toHaveText([
      "Goal",
      "Known",
      "Unknown",
      "Done",
      "Needs authorization",
    ]);
    await expect(answers.nth(1)).toContainText("the launch code is 4242");
    // The stored reading after a reload: session 2 has started filling up.
    await expect(chat.meter).toHaveAttribute("aria-valuenow", /^[1-9]\d*$/);
  });

  test("cancelling a manual reset while it drafts keeps the session going", async ({ page }) => {
    test.setTimeout(120_000);
    const chat = new SessionPage(page);
    await chat.openNew();
    await chat.sendMessage("remember the bridge is red");
    await chat.waitForReplyDone();

    await chat.newSession.click();
    await expect(chat.resetPlaceholder).toContainText("Resetting context…");
    await expect(chat.queue).toBeVisible();
    // Keyboard: Cancel reset is reachable and operable without a pointer.
    await chat.cancelReset.focus();
    await page.keyboard.press("Enter");
    await expect(chat.resetPlaceholder).toBeHidden({ timeout: 15_000 });
    await expect(chat.toast(/Context reset cancelled/)).toBeVisible();
    await expect(chat.dividers).toHaveCount(0);

    await chat.sendMessage("what do you know?");
    await chat.waitForReplyDone();
    await expect(chat.lastAssistantText()).toContainText("bridge is red");
    await expect(chat.dividers).toHaveCount(0);
    await page.reload();
    await expect(chat.lastAssistantText()).toContainText("bridge is red");
    await expect(chat.dividers).toHaveCount(0);
    await expect(chat.navigator).toBeHidden();
  });

  test("a manual reset answers a queued message in the new session", async ({ page }) => {
    test.setTimeout(120_000);
    const chat = new SessionPage(page);
    await chat.openNew();
    await chat.sendMessage("remember the river is called Tagus");
    await chat.waitForReplyDone();

    // The default agent reviews manual resets: the handoff is drafted (the placeholder shows while
    // it is written), then waits, and a message sent now waits with it.
    await chat.newSession.click();
    await expect(chat.resetPlaceholder).toBeVisible();
    await expect(chat.draftEditor).toBeVisible({ timeout: 30_000 });
    await expect(chat.dividers).toHaveCount(0);
    await chat.composer.fill("what do you know?");
    await chat.composer.press("Enter");
    const queued = chat.userMessages.filter({ hasText: "what do you know?" });
    await expect(queued.getByTestId("queued-badge")).toContainText(
      "waits for your review of the handoff",
    );
    await chat.startNewSession.click();
    await expect(chat.divider(2)).toContainText("Session 2 started", { timeout: 30_000 });
    await expect(chat.divider(2)).toContainText("started manually");
    await expect(chat.toast("Session 2 started — context was reset")).toBeVisible();
    await expect(queued.getByTestId("queued-badge")).toBeHidden({ timeout: 30_000 });
    // The server answers it on its own once the draft is committed: this page follows that
    // answer live, without a reload.
    const answer = page.getByTestId("assistant-text").filter({ hasText: "Here is everything" });
    await expect(answer.last()).toContainText("Tagus", { timeout: 30_000 });
    await chat.waitForReplyDone();

    // The card's actions: the handoff as Markdown on the clipboard, and as a JSON backup.
    await chat.divider(2).getByRole("button", { name: "Expand handoff for session 2" }).click();
    await chat.divider(2).getByRole("button", { name: "Copy as Markdown" }).click();
    await expect(chat.toast("Handoff copied as Markdown")).toBeVisible();
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown).toContain("Tagus");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      chat.divider(2).getByRole("button", { name: "Download JSON" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^handoff-session-2-r1\.json$/);
    const backup = JSON.parse(readFileSync((await download.path()) ?? "", "utf8")) as {
      revision: number;
      artifact: { must_preserve: string[] };
    };
    expect(backup.revision).toBe(1);
    expect(backup.artifact.must_preserve).toContain("the river is called Tagus");
    await chat.divider(2).getByRole("button", { name: "Collapse handoff for session 2" }).click();

    const live = await chat.allRows();
    expect(live.indexOf("user: what do you know?")).toBeGreaterThan(live.indexOf("divider 2"));
    expect(live.at(-1)).toMatch(/^assistant: Here is everything[\s\S]*Tagus/);
    await page.reload();
    await expect(chat.divider(2)).toBeAttached();
    await expect(answer.last()).toContainText("Tagus", { timeout: 30_000 });
    expect(await chat.allRows()).toEqual(live);

    // The chips jump: session 1 brings the thread's first message into view.
    await chat.navigator.getByRole("button", { name: "Session 1" }).click();
    await expect(chat.userMessages.filter({ hasText: "Tagus" }).first()).toBeInViewport();
    await expect(chat.navigator.getByRole("button", { name: "Session 1" })).toHaveAttribute(
      "aria-current",
      "true",
    );
  });
});
