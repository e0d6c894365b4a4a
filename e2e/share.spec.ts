import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { SessionPage } from "./pages/session-page";

const SECRET = "sk-proj-Zq7Xw3Vb9Nm4Lk2Jh8Gf6Ds5Ap1";

/** Violations a user of assistive technology would hit hard: serious and critical ones. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

test("a shared thread is readable read-only by anyone with the link until it is revoked", async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const chat = new SessionPage(page);
  await chat.openNew();
  await chat.sendMessage(`remember the staging key is ${SECRET}`);
  await chat.waitForReplyDone();
  await chat.newSession.click();
  await expect(chat.divider(2)).toContainText("Session 2 started", { timeout: 30_000 });
  await chat.sendMessage("todo write the release notes");
  await chat.waitForReplyDone();
  const threadId = chat.threadId();

  expect(await seriousViolations(page)).toEqual([]);

  await chat.shareButton.click();
  const linkField = page.getByRole("textbox", { name: "Share link" });
  await expect(linkField).toHaveValue(/\/share\/[A-Za-z0-9_-]{43}$/);
  const url = await linkField.inputValue();
  // Sharing again hands out the same link.
  const again = await page.request.post(`/api/threads/${threadId}/share`);
  expect(again.status()).toBe(200);
  expect(((await again.json()) as { url: string }).url).toBe(url);

  const visitor = await browser.newContext();
  try {
    const shared = await visitor.newPage();
    const response = await shared.goto(url);
    expect(response?.status()).toBe(200);
    const view = new SessionPage(shared);
    await expect(shared.getByText("Shared thread · read-only")).toBeVisible();
    await expect(view.divider(2)).toContainText("Session 2 started");
    await expect(view.navigator.getByRole("button", { name: "Session 2" })).toBeVisible();
    await view.divider(2).getByRole("button", { name: "Expand handoff for session 2" }).click();
    const details = view.divider(2).getByTestId("handoff-details");
    await expect(details.getByRole("heading", { name: "Must preserve" })).toBeVisible();
    await expect(details).toContainText("[REDACTED:api_key]");
    // Read-only: nothing that writes is offered.
    await expect(shared.getByRole("textbox", { name: "Message" })).toHaveCount(0);
    await expect(view.newSession).toHaveCount(0);
    await expect(view.shareButton).toHaveCount(0);
    // Secrets in message text are masked.
    await expect(view.userMessages.first()).toContainText("[REDACTED:api_key]");
    await expect(shared.getByText(SECRET)).toHaveCount(0);
    expect(await shared.content()).not.toContain(SECRET);
    expect(await seriousViolations(shared)).toEqual([]);

    // Revoked: the link is gone for everyone.
    await page.getByRole("button", { name: "Revoke link" }).click();
    await expect(chat.toast("Share link revoked")).toBeVisible();
    const gone = await shared.goto(url);
    expect(gone?.status()).toBe(404);
    await expect(shared.getByRole("heading", { name: "Not found" })).toBeVisible();
    const token = url.split("/").at(-1) ?? "";
    expect((await shared.request.get(`/share/${token}/messages`)).status()).toBe(404);
  } finally {
    await visitor.close();
  }

  // Sharing again makes a new token; the old one stays dead.
  const fresh = await page.request.post(`/api/threads/${threadId}/share`);
  expect(fresh.status()).toBe(201);
  expect(((await fresh.json()) as { url: string }).url).not.toBe(url);
  expect((await page.request.delete(`/api/threads/${threadId}/share`)).status()).toBe(204);

  // Only the owner shares: another guest gets 404, no session gets 401.
  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await new SessionPage(otherPage).openNew();
    const denied = await otherPage.request.post(`/api/threads/${threadId}/share`);
    expect(denied.status()).toBe(404);
    expect((await otherPage.request.delete(`/api/threads/${threadId}/share`)).status()).toBe(404);
  } finally {
    await other.close();
  }
  const anonymous = await playwright.request.newContext({ baseURL });
  try {
    expect((await anonymous.post(`/api/threads/${threadId}/share`)).status()).toBe(401);
  } finally {
    await anonymous.dispose();
  }
});
