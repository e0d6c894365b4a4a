// Tool approvals in the chat (offline model): a delete asks first; Deny keeps the file, Approve
// deletes it (its versions keep it), "Allow for this session" lets the next delete run without
// asking until the session ends, and an approval left unanswered is denied when a new message
// is sent.
import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace-page";

interface FileView {
  file: { deleted: boolean; content: string | null; version: number };
  versions: { version: number; op: string }[];
}

test("delete asks for approval: deny, approve, allow for this session, a reset, unanswered", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const chat = new WorkspacePage(page);
  const fileApi = (path: string, query = "") =>
    page.request.get(`/api/threads/${chat.threadId()}/files/${path}${query}`);

  await chat.openNew();
  await chat.sendMessage("write work/p1.md: the first draft");
  await chat.waitForReplyDone();
  await expect(chat.toolCard("write_file")).toHaveAttribute("data-status", "done");

  // Deny, with the keyboard: the file stays and the reply says so.
  await chat.sendMessage("delete work/p1.md");
  await expect(chat.approvalCards).toHaveCount(1);
  await expect(chat.approvalCards).toContainText("delete_file");
  await expect(chat.approvalCards).toContainText("work/p1.md");
  await chat.waitForReplyDone();
  // From the composer, back through the reply's controls.
  await chat.tabTo(chat.deny, "backward");
  await page.keyboard.press("Enter");
  await expect(chat.approvalCards).toHaveCount(0);
  await chat.waitForReplyDone();
  await expect(chat.lastAssistantText()).toContainText("was not deleted");
  await expect(chat.toolCard("delete_file").last()).toHaveAttribute("data-status", "denied");
  await chat.openFiles();
  await expect(chat.fileEntry("work/p1.md")).toBeVisible();
  expect((await (await fileApi("work/p1.md")).json()).file.deleted).toBe(false);

  // Approve: deleted; its versions keep what it held.
  await chat.sendMessage("delete work/p1.md");
  await expect(chat.approve).toBeVisible();
  await chat.approve.click();
  await chat.waitForReplyDone();
  await expect(chat.lastAssistantText()).toContainText("Deleted work/p1.md");
  await expect(chat.toolCard("delete_file").last()).toHaveAttribute("data-status", "done");
  await expect(chat.fileEntry("work/p1.md")).toHaveCount(0);
  const deleted = (await (await fileApi("work/p1.md")).json()) as FileView;
  expect(deleted.file.deleted).toBe(true);
  expect(deleted.versions.map((v) => v.op)).toEqual(["delete", "write"]);
  const first = (await (await fileApi("work/p1.md", "?version=1")).json()) as FileView;
  expect(first.file.content).toBe("the first draft");

  // Allow for this session: the next delete of this session runs without asking.
  await chat.sendMessage("write work/p2.md: second");
  await chat.waitForReplyDone();
  await chat.sendMessage("write work/p3.md: third");
  await chat.waitForReplyDone();
  await chat.sendMessage("delete work/p2.md");
  await chat.allowForSession.click();
  await chat.waitForReplyDone();
  await expect(chat.lastAssistantText()).toContainText("Deleted work/p2.md");
  const cardsBefore = await chat.approvalCards.count();
  await chat.sendMessage("delete work/p3.md");
  await chat.waitForReplyDone();
  await expect(chat.lastAssistantText()).toContainText("Deleted work/p3.md");
  expect(await chat.approvalCards.count()).toBe(cardsBefore);
  await expect(chat.fileEntry("work/p3.md")).toHaveCount(0);

  // A new session (the manual reset) ends the grant: the next delete asks again.
  await chat.resetThroughDraft();
  await expect(chat.divider(2)).toBeVisible({ timeout: 30_000 });
  await expect(chat.newSession).toBeEnabled();
  await chat.sendMessage("write work/p4.md: fourth");
  await chat.waitForReplyDone();
  await chat.sendMessage("delete work/p4.md");
  await expect(chat.approvalCards).toHaveCount(1);
  await chat.waitForReplyDone();

  // Left unanswered when a new message is sent: denied, the file stays, the next reply works.
  await chat.sendMessage("remember the harbour opens at six");
  await chat.waitForReplyDone();
  await expect(chat.lastAssistantText()).toContainText("harbour opens at six");
  await expect(chat.approvalCards).toHaveCount(0);
  await expect(chat.toolCard("delete_file").last()).toHaveAttribute("data-status", "denied");
  await expect(chat.fileEntry("work/p4.md")).toBeVisible();
  expect((await (await fileApi("work/p4.md")).json()).file.deleted).toBe(false);
  await chat.sendMessage("what do you know?");
  await chat.waitForReplyDone();
  await expect(chat.lastAssistantText()).toContainText("harbour opens at six");
});

test("the share page shows tool cards, files and plan read-only, with no approval buttons", async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  const chat = new WorkspacePage(page);
  await chat.openNew();
  await chat.sendMessage("plan: draft the notes; check them");
  await chat.waitForReplyDone();
  await chat.sendMessage("write notes/draft.md: shared words");
  await chat.waitForReplyDone();
  await chat.sendMessage("delete notes/draft.md");
  await expect(chat.approve).toBeVisible();
  await chat.waitForReplyDone();

  await chat.createShareLink();
  const linkField = page.getByRole("textbox", { name: "Share link" });
  await expect(linkField).toHaveValue(/\/share\//);
  const url = await linkField.inputValue();

  const visitor = await browser.newContext();
  try {
    const shared = new WorkspacePage(await visitor.newPage());
    await shared.page.goto(url);
    await expect(shared.page.getByText("Shared thread · read-only")).toBeVisible();
    await expect(shared.toolCard("write_file")).toHaveAttribute("data-status", "done");
    await expect(shared.approvalCards).toContainText("Waiting for approval");
    await expect(shared.approve).toHaveCount(0);
    await expect(shared.deny).toHaveCount(0);
    await expect(shared.allowForSession).toHaveCount(0);
    await expect(shared.planToggle).toContainText("Plan 0/2");

    await shared.openFiles();
    await shared.fileEntry("notes/draft.md").click();
    await expect(shared.filesPanel.getByTestId("file-content")).toContainText("shared words");
    const download = shared.filesPanel.getByRole("link", { name: "Download" });
    const href = (await download.getAttribute("href")) ?? "";
    expect(href).toMatch(/^\/share\/[^/]+\/files\/notes\/draft\.md\?version=1&download=1$/);
    expect(href).not.toContain(chat.threadId());
    const file = await shared.page.request.get(href);
    expect(file.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    expect(file.headers()["content-disposition"]).toContain("attachment");
    expect(await file.text()).toBe("shared words");
  } finally {
    await visitor.close();
  }
  // The owner's approval is still open and answerable.
  await chat.deny.click();
  await chat.waitForReplyDone();
  await expect(chat.lastAssistantText()).toContainText("was not deleted");
});

test("an approval answered in two tabs resolves once: the second tab gets the outcome", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const first = new WorkspacePage(page);
  await first.openNew();
  await first.sendMessage("write work/twice.md: keep or not");
  await first.waitForReplyDone();
  await first.sendMessage("delete work/twice.md");
  await expect(first.approve).toBeVisible();
  await first.waitForReplyDone();

  const second = new WorkspacePage(await page.context().newPage());
  await second.page.goto(page.url());
  await expect(second.deny).toBeVisible();

  await first.approve.click();
  await first.waitForReplyDone();
  await expect(first.lastAssistantText()).toContainText("Deleted work/twice.md");

  await second.deny.click();
  await expect(second.toast(/already answered: approved/)).toBeVisible();
  await expect(second.toolCard("delete_file")).toHaveAttribute("data-status", "done");
  await expect(second.lastAssistantText()).toContainText("Deleted work/twice.md");
  await expect(second.page.getByText("The reply failed.")).toHaveCount(0);
  await expect(second.send).toBeVisible();
});
