import { expect, type Page, test } from "@playwright/test";
import { seedFor, signIn } from "./support/long-thread-seed";

const messageRows = (page: Page) => page.getByTestId("message");

test.describe("@long-thread a 10,000-message thread across 8 sessions", () => {
  test("opens at the last message, keeps the DOM small and jumps between sessions", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const seed = seedFor(baseURL);
    await signIn(page, seed);
    await page.goto(`/chat/${seed.threadId}`);

    const last = page.getByText(`Message ${seed.messages}:`, { exact: false });
    await expect(last).toBeInViewport();
    expect(await messageRows(page).count()).toBeLessThan(100);

    const navigator = page.getByRole("navigation", { name: "Sessions" });
    await expect(navigator).toBeVisible();

    // Middle: session 5's divider comes into view, and its handoff card opens.
    await jumpTo(page, 5);
    const divider = page.locator('[data-testid="session-divider"][data-session-number="5"]');
    await expect(divider).toBeInViewport();
    await expect(divider).toContainText("Session 5 started");
    expect(await messageRows(page).count()).toBeLessThan(100);
    await divider.getByRole("button", { name: "Expand handoff for session 5" }).click();
    const details = divider.getByTestId("handoff-details");
    await expect(details).toBeVisible();
    for (const heading of [
      "Goal",
      "Completed work",
      "Remaining tasks",
      "Confirmed facts",
      "Unknowns",
    ]) {
      await expect(details.getByText(heading, { exact: true }).first()).toBeVisible();
    }
    await expect(details).toContainText("Keep a very long conversation going");
    await expect(details).toContainText("Finish part 5");

    // Top: session 1's first message.
    await jumpTo(page, 1);
    await expect(page.getByText("Message 1:", { exact: false })).toBeInViewport();
    expect(await messageRows(page).count()).toBeLessThan(100);

    // Bottom again.
    await jumpTo(page, seed.sessions);
    await page.getByTestId("message-scroller").evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect(last).toBeInViewport();
    expect(await messageRows(page).count()).toBeLessThan(100);
  });
});

/** Uses the navigator's chip, or its menu when the chips are collapsed into one. */
async function jumpTo(page: Page, session: number) {
  const nav = page.getByRole("navigation", { name: "Sessions" });
  const chip = nav.getByRole("button", { name: `Session ${session}`, exact: true });
  if (await chip.isVisible().catch(() => false)) {
    await chip.click();
    return;
  }
  await nav.getByRole("combobox", { name: "Jump to session" }).selectOption(String(session));
}
