import { expect, type Page, test } from "@playwright/test";
import { sameOrigin } from "./pages/same-origin";
import { SessionPage } from "./pages/session-page";

/** A manual reset through the API (the reset button may open a review first), then a reload. */
async function resetFrom(page: Page, threadId: string, fromSession: number) {
  const response = await page.request.post(`/api/threads/${threadId}/reset`, {
    data: { fromSession },
    headers: sameOrigin(page),
  });
  expect(response.status()).toBe(201);
  await page.reload();
}

async function pinTexts(page: Page, threadId: string): Promise<string[]> {
  const response = await page.request.get(`/api/threads/${threadId}/pins`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { pins: { text: string }[] }).pins.map((p) => p.text);
}

async function openCard(chat: SessionPage, session: number) {
  await chat.listReady();
  await chat
    .divider(session)
    .getByRole("button", { name: `Expand handoff for session ${session}` })
    .click();
  const details = chat.divider(session).getByTestId("handoff-details");
  await expect(details).toBeVisible();
  return details;
}

test("pins are changed from a card, and the next reset carries exactly the pins", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const chat = new SessionPage(page);
  await chat.openNew();
  await chat.sendMessage("remember the locker code is 7319");
  await chat.waitForReplyDone();
  await expect(chat.lastAssistantText()).toContainText(
    "I'll remember that the locker code is 7319",
  );
  await chat.sendMessage("note the lift is out of order");
  await chat.waitForReplyDone();
  const threadId = chat.threadId();
  expect(await pinTexts(page, threadId)).toEqual(["the locker code is 7319"]);

  await resetFrom(page, threadId, 1);
  const card = await openCard(chat, 2);
  const carried = card.getByTestId("carried-pins");
  await expect(carried).toContainText("the locker code is 7319");
  await expect(carried).toContainText("Pinned");
  const unpinLocker = card.getByRole("button", { name: "Unpin the locker code is 7319" });
  const pinLift = card.getByRole("button", { name: "Pin the lift is out of order" });
  await expect(unpinLocker).toBeVisible();
  await expect(pinLift).toBeVisible();

  // Pin a fact from the keyboard, unpin a pin with a click.
  await pinLift.focus();
  await page.keyboard.press("Enter");
  await expect(card.getByRole("button", { name: "Unpin the lift is out of order" })).toBeVisible();
  await unpinLocker.click();
  await expect(carried).toContainText("Unpinned");
  await expect(card.getByRole("button", { name: "Pin the locker code is 7319" })).toBeVisible();
  await expect.poll(() => pinTexts(page, threadId)).toEqual(["the lift is out of order"]);
  await page.screenshot({ path: "test-results/pins-desktop-card.png" });

  // The next reset's card lists exactly the pins; the earlier card stays as it was written.
  await resetFrom(page, threadId, 2);
  const next = await openCard(chat, 3);
  const nextPins = next.getByTestId("carried-pins").getByRole("listitem");
  await expect(nextPins).toHaveCount(1);
  await expect(nextPins).toContainText("the lift is out of order");
  await expect(next.getByTestId("carried-pins")).not.toContainText("locker");
  const earlier = await openCard(chat, 2);
  await expect(earlier.getByTestId("carried-pins")).toContainText("the locker code is 7319");
  await expect(earlier.getByTestId("carried-pins")).toContainText("Unpinned");
});

test("a refused unpin is undone with an error toast, and the buttons work at 390 px", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const chat = new SessionPage(page);
  await chat.openNew();
  await chat.sendMessage("remember the ferry leaves at nine");
  await chat.waitForReplyDone();
  const threadId = chat.threadId();
  await resetFrom(page, threadId, 1);
  const card = await openCard(chat, 2);
  const unpin = card.getByRole("button", { name: "Unpin the ferry leaves at nine" });
  // The card's details scroll inside it; scrolled to, the button is on screen at this width.
  await unpin.scrollIntoViewIfNeeded();
  await expect(unpin).toBeInViewport();
  await page.screenshot({ path: "test-results/pins-390-card.png" });

  await page.route("**/api/threads/*/pins/*", (route) =>
    route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({
        error: { code: "unavailable:database", message: "The database is unavailable." },
      }),
    }),
  );
  await unpin.click();
  await expect(chat.toast(/Couldn't unpin it/)).toBeVisible();
  await expect(card.getByRole("button", { name: "Unpin the ferry leaves at nine" })).toBeVisible();
  expect(await pinTexts(page, threadId)).toEqual(["the ferry leaves at nine"]);
  await page.screenshot({ path: "test-results/pins-390-refused.png" });

  await page.unroute("**/api/threads/*/pins/*");
  await card.getByRole("button", { name: "Unpin the ferry leaves at nine" }).click();
  await expect(card.getByRole("button", { name: "Pin the ferry leaves at nine" })).toBeVisible();
  await expect.poll(() => pinTexts(page, threadId)).toEqual([]);
});
