// The agent at work (offline model, default 4096-token window): a six-item plan worked through in
// one reply whose context fills midway — tool cards stream in, the run resets between two tool
// steps and goes on in session 2 by itself, and the plan, the files, the rows after a reload and
// session 1's handoff all agree with what the run did.
import { expect, test } from "@playwright/test";
import { WorkspacePage } from "./pages/workspace-page";

interface StoredPart {
  type: string;
  state?: string;
  input?: { path?: string; items?: { id: string; task: string; status: string }[] };
  output?: { ok?: boolean };
  data?: { event?: string };
}

interface ThreadView {
  sessions: {
    number: number;
    id: string;
    handoff: {
      artifact: { files_modified: string[]; remaining_tasks: { id: string; task: string }[] };
    } | null;
  }[];
  messages: { role: string; parts: StoredPart[]; metadata?: { sessionId?: string } }[];
}

const TASKS = ["a", "b", "c", "d", "e", "f"];

test("a six-item plan is worked through in one reply across a reset between two tool steps", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const chat = new WorkspacePage(page);
  await chat.openNew();
  await chat.sendMessage(`plan: ${TASKS.join("; ")}`);
  await chat.waitForReplyDone();
  await expect(chat.planToggle).toContainText("Plan 0/6");
  await expect(chat.toolCard("update_plan")).toHaveCount(1);

  await chat.sendMessage("work through the plan");
  // Tool cards stream in while the reply is still running.
  await expect(chat.toolCard("write_file").first()).toBeVisible({ timeout: 20_000 });
  await expect(chat.stop).toBeVisible();
  // The context fills midway: session 2 starts inside the same reply, and the run goes on.
  await expect(chat.divider(2)).toBeVisible({ timeout: 60_000 });
  await expect(chat.divider(2)).toContainText("Session 2");
  await expect(chat.stop).toBeVisible();
  await chat.waitForReplyDone();
  await expect(chat.lastAssistantText()).toContainText("all 6 items are done");
  // No message was sent for the work to go on after the reset (several resets may happen in
  // one run: each moves the request into the new session, as the server stores it).
  const rows = await chat.allRows();
  expect(rows.filter((row) => row.startsWith("user:"))).toEqual([
    `user: plan: ${TASKS.join("; ")}`,
    "user: work through the plan",
  ]);

  // Between two tool steps: the reply's part above the divider ends with a tool call and its
  // part below begins with one (past the moved request, if it moved there).
  const shapes = await chat.rowShapes();
  const at = shapes.findIndex((row) => row[0] === "divider 2");
  expect(at).toBeGreaterThan(0);
  expect(shapes[at - 1]?.at(-1)).toMatch(/^tool:/);
  const below = shapes.slice(at + 1).find((row) => row[0] !== "user");
  expect(below?.[0]).toMatch(/^tool:/);
  expect(shapes.at(-1)?.at(-1)).toBe("text");

  await expect(chat.planToggle).toContainText("Plan 6/6");
  await chat.expandPlan();
  await expect(chat.planItems).toHaveCount(6);
  for (const item of await chat.planItems.all()) {
    await expect(item).toHaveAttribute("data-status", "done");
  }

  await chat.openFiles();
  const workFiles = TASKS.map((_, i) => `work/p${i + 1}.md`);
  await expect(chat.fileEntries).toHaveCount(6);
  expect(await chat.listedPaths()).toEqual(workFiles);
  await chat.fileEntry("work/p3.md").click();
  await expect(chat.filesPanel.getByTestId("file-path")).toHaveText("work/p3.md");
  await expect(chat.filesPanel.getByTestId("file-content")).toContainText("the work on “c”");
  await chat.closeFiles();

  await page.reload();
  await expect(chat.lastAssistantText()).toContainText("all 6 items are done");
  expect(await chat.allRows()).toEqual(rows);
  expect(await chat.rowShapes()).toEqual(shapes);
  await expect(chat.planToggle).toContainText("Plan 6/6");
  // An answer that ran across a reset can no longer be edited or regenerated.
  await expect(page.getByRole("button", { name: "Regenerate" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Edit", exact: true })).toHaveCount(0);

  // Session 1's handoff: exactly the files written in session 1, exactly the items still
  // pending at the reset (read from the run's own tool calls, as stored).
  const view = (await (
    await page.request.get(`/api/threads/${chat.threadId()}`)
  ).json()) as ThreadView;
  const [first, second] = view.sessions;
  expect(view.sessions.length).toBeGreaterThanOrEqual(2);
  const beforeReset = view.messages.find(
    (m) =>
      m.role === "assistant" &&
      m.metadata?.sessionId === first?.id &&
      m.parts.some((p) => p.type === "data-context-reset" && p.data?.event === "reset_complete"),
  );
  expect(beforeReset).toBeDefined();
  const calls = beforeReset?.parts.filter((p) => p.state === "output-available") ?? [];
  const written = calls
    .filter((p) => p.type === "tool-write_file" && p.output?.ok)
    .map((p) => p.input?.path);
  const lastPlan = calls.filter((p) => p.type === "tool-update_plan").at(-1)?.input?.items ?? [];
  const pending = lastPlan
    .filter((i) => i.status === "pending")
    .map(({ id, task }) => ({ id, task }));
  expect(written.length).toBeGreaterThan(0);
  expect(pending.length).toBeGreaterThan(0);
  const handoff = second?.handoff?.artifact;
  expect([...(handoff?.files_modified ?? [])].sort()).toEqual([...written].sort());
  expect(handoff?.remaining_tasks).toEqual(pending);
});
