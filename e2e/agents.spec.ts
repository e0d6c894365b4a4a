import { expect, type Page, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { sameOrigin } from "./pages/same-origin";

interface JournalEvent {
  seq: number;
  type: string;
  agent: string | null;
}

/** Creates an agent on the Agents settings page, as a user would. */
async function createAgent(
  page: Page,
  agent: { name: string; slug: string; prompt: string; canHandOff: boolean },
) {
  await page.getByRole("button", { name: "New agent" }).click();
  const form = page.getByTestId("agent-form");
  await form.getByLabel("Name", { exact: true }).fill(agent.name);
  await form.getByLabel("Slug", { exact: true }).fill(agent.slug);
  await form.getByLabel("Description", { exact: true }).fill(`${agent.name} of the relay.`);
  await form.getByLabel("System prompt", { exact: true }).fill(agent.prompt);
  const handoffTool = form.getByRole("checkbox", { name: /^handoff_to_agent/ });
  if (agent.canHandOff) {
    await handoffTool.check();
    await form.getByRole("checkbox", { name: /May transfer to other agents/ }).check();
  }
  await form.getByRole("button", { name: "Create agent" }).click();
  await expect(page.getByText(agent.name, { exact: true }).first()).toBeVisible();
}

async function expectRelay(page: Page, labels: string[]) {
  const divider = page.locator('[data-testid="session-divider"][data-trigger="agent_handoff"]');
  await expect(divider).toHaveCount(1);
  await expect(divider).toContainText("Writer → Editor");
  await expect(divider).toContainText("The user asked for editor to take over.");
  const brief = divider.getByTestId("agent-brief");
  await brief.getByRole("button", { name: /Expand/ }).click();
  await expect(brief.getByTestId("handoff-details")).toContainText("polish draft.md");
  await expect(brief.getByTestId("handoff-details")).toContainText("Workspace References");
  await expect(brief.getByTestId("handoff-details")).toContainText("draft.md");
  // The replies after the divider are Editor's; the draft before it was Writer's.
  await expect(page.getByTestId("message-agent")).toHaveText(labels);
}

test.describe("agents", () => {
  test("a writer hands a draft to an editor inside one reply; the journal, a reload and the share page show the relay", async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const chat = new ChatPage(page);
    await chat.openNew();

    await page.goto("/settings/agents");
    await createAgent(page, {
      name: "Writer",
      slug: "writer",
      prompt: "You draft texts.",
      canHandOff: true,
    });
    await createAgent(page, {
      name: "Editor",
      slug: "editor",
      prompt: "You polish drafts.",
      canHandOff: false,
    });

    await chat.openNew();
    await page.getByRole("combobox", { name: "Agent" }).selectOption("writer");
    await chat.sendMessage("write draft.md: the relay starts here. it is rough");
    await chat.waitForReplyDone();
    await chat.sendMessage("hand off to editor: polish draft.md");
    await chat.waitForReplyDone();
    const threadId = chat.threadId();

    await expectRelay(page, ["Writer", "Writer", "Editor"]);
    await expect(chat.lastAssistantText()).toContainText("draft.md");
    await page.screenshot({ path: "test-results/agents-relay-desktop.png", fullPage: true });

    // The next turn runs as Editor.
    await expect(page.getByRole("combobox", { name: "Agent" })).toHaveValue("editor");
    await chat.sendMessage("what do you know?");
    await chat.waitForReplyDone();
    await expect(page.getByTestId("message-agent").last()).toHaveText("Editor");
    const file = await page.request.get(`/api/threads/${threadId}/files/draft.md`);
    expect(file.status()).toBe(200);
    expect(JSON.stringify(await file.json())).toContain("Revised");

    // The journal lists the relay in order.
    const thread = await page.request.get(`/api/threads/${threadId}?limit=100`);
    const view = (await thread.json()) as { messages: { id: string; role: string }[] };
    const request = view.messages.filter((m) => m.role === "user")[1];
    const lookup = await page.request.get(`/api/threads/${threadId}/runs?request=${request?.id}`);
    const { run } = (await lookup.json()) as { run: { id: string } | null };
    expect(run).not.toBeNull();
    const journal = await page.request.get(`/api/threads/${threadId}/runs/${run?.id}/events`);
    expect(journal.status()).toBe(200);
    const { events } = (await journal.json()) as { events: JournalEvent[] };
    const order = [
      "agent_invocation_started",
      "agent_handoff_requested",
      "agent_invocation_created",
      "agent_handoff_accepted",
      "agent_invocation_transferred",
      "agent_invocation_started",
      "agent_invocation_completed",
      "run_completed",
    ];
    const types = events.map((e) => e.type);
    let at = -1;
    for (const type of order) {
      at = types.indexOf(type, at + 1);
      expect(at, `${type} after the earlier events`).toBeGreaterThan(-1);
    }
    expect(events.find((e) => e.type === "agent_invocation_transferred")?.agent).toBe("writer");
    expect(events.at(-1)?.agent).toBe("editor");

    // The timeline opens from the reply.
    await chat.assistantMessages.nth(1).getByRole("button", { name: "Timeline" }).click();
    const timeline = page.getByTestId("run-timeline");
    await expect(timeline).toBeVisible();
    await expect(timeline).toContainText("Editor");
    await expect(
      timeline.locator('[data-testid="timeline-event"][data-type="agent_handoff_accepted"]'),
    ).toHaveCount(1);
    await page.keyboard.press("Escape");
    await expect(timeline).toBeHidden();

    // After a reload: the same divider, brief and attribution.
    await page.reload();
    await expect(chat.assistantMessages.last()).toBeVisible();
    await expectRelay(page, ["Writer", "Writer", "Editor", "Editor"]);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "test-results/agents-relay-390.png", fullPage: true });

    // The share page shows the divider too.
    const share = await page.request.post(`/api/threads/${threadId}/share`, {
      headers: sameOrigin(page),
    });
    expect(share.status()).toBeLessThan(300);
    const { url } = (await share.json()) as { url: string };
    const visitor = await page.context().browser()?.newPage();
    if (!visitor) throw new Error("no browser for the visitor");
    await visitor.goto(url);
    const shared = visitor.locator('[data-testid="session-divider"][data-trigger="agent_handoff"]');
    await expect(shared).toContainText("Writer → Editor");
    await visitor.close();
  });
});
