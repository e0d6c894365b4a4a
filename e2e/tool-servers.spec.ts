// Outside MCP tool servers, end to end: a server the spec starts (the official SDK on node:http,
// tests/support/mcp-tool-server.ts)
// is added in Settings, one of its tools is allowed for an agent in the agent form, and a chat
// with that agent calls it through the offline model — an approval first, then the tool's
// answer in the reply; marked read-only it runs without asking. Once the server is stopped the
// same call is a tool error the reply names, and Settings still lists the tool. A second test
// covers the form's refusals, the token never shown back, keyboard removal and a phone's width.
import { expect, type Page, test } from "@playwright/test";
import { startToolServer } from "../tests/support/mcp-tool-server";
import { ChatPage } from "./pages/chat-page";
import { WorkspacePage } from "./pages/workspace-page";

const TOOL = "echo";

const SHOTS = "test-results/tool-servers";

const section = (page: Page) => page.getByRole("region", { name: "Tool servers" });
const serverCard = (page: Page, slug: string) =>
  page.locator(`[data-testid="tool-server"][data-slug="${slug}"]`);

/** Adds a server on the settings page as a user would. */
async function addServer(page: Page, server: { slug: string; url: string; token?: string }) {
  const form = page.getByRole("form", { name: "Add a tool server" });
  await form.getByLabel("Name", { exact: true }).fill(server.slug);
  await form.getByLabel("URL", { exact: true }).fill(server.url);
  if (server.token) await form.getByLabel("Token (optional)").fill(server.token);
  await form.getByRole("button", { name: "Add server" }).click();
}

/** Every button, input and link of the section lies inside the viewport's width. */
async function expectInsideViewport(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  const outside = await section(page)
    .locator("button, input, a, select")
    .evaluateAll(
      (elements, w) =>
        elements
          .map((e) => ({ e, box: e.getBoundingClientRect() }))
          .filter(({ box }) => box.width > 0 && (box.left < 0 || box.right > w + 0.5))
          .map(({ e, box }) => `${e.outerHTML.slice(0, 80)} ${box.left}-${box.right}`),
      width,
    );
  expect(outside).toEqual([]);
  const overflows = await page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
  );
  expect(overflows).toBe(false);
}

test("an MCP tool is added, allowed for an agent, approved and answered; a stopped server is a tool error", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const mcp = await startToolServer({ token: "mcp-e2e-secret-4711" });
  try {
    const chat = new WorkspacePage(page);
    await new ChatPage(page).openNew();

    // Settings: empty at first, then the server with its tool and its token kept out of sight.
    await page.goto("/settings");
    await expect(section(page).getByText("No tool servers yet.")).toBeVisible();
    await addServer(page, { slug: "words", url: mcp.url, token: "mcp-e2e-secret-4711" });
    const card = serverCard(page, "words");
    await expect(
      card.locator(`[data-testid="tool-server-tool"][data-tool="${TOOL}"]`),
    ).toBeVisible();
    await expect(card).toContainText("Echoes the text back.");
    await expect(card.getByTestId("token-state")).toHaveText("Token stored");
    await expect(card.getByTestId("tool-server-error")).toHaveCount(0);
    await expect(page.locator("body")).not.toContainText("mcp-e2e-secret-4711");
    await expect(page.getByLabel("Token (optional)")).toHaveValue("");

    // The agent form allows that one tool, through the profiles API.
    await page.goto("/settings/agents");
    await page.getByRole("button", { name: "New agent" }).click();
    const form = page.getByTestId("agent-form");
    await form.getByLabel("Name", { exact: true }).fill("Looker");
    await form.getByLabel("Slug", { exact: true }).fill("looker");
    await form.getByLabel("System prompt", { exact: true }).fill("You look words up.");
    const words = form.locator('[data-testid="agent-mcp-server"][data-slug="words"]');
    await words.getByRole("checkbox", { name: new RegExp(`^${TOOL}`) }).check();
    await expect(words.getByRole("checkbox", { name: /^All tools of words/ })).not.toBeChecked();
    await form.getByRole("button", { name: "Create agent" }).click();
    await expect(page.getByText("Looker", { exact: true }).first()).toBeVisible();
    const profile = await (await page.request.get("/api/profiles/looker")).json();
    expect(profile.profile.tools.allow).toContain(`mcp:words/${TOOL}`);

    // A chat with that agent: the call asks first, then the reply carries the tool's answer.
    const toolName = `mcp__words__${TOOL}`;
    // The reply names the tool in code (markdown), so the backticks may not be in its text.
    const returned = new RegExp(`${toolName}\`? returned`);
    const failed = new RegExp(`${toolName}\`? failed`);
    await chat.openNew();
    await page.getByRole("combobox", { name: "Agent" }).selectOption("looker");
    await chat.sendMessage(`call ${toolName} {"text": "lantern at the quay"}`);
    await expect(chat.approvalCards).toHaveCount(1);
    await expect(chat.approvalCards).toContainText(toolName);
    await expect(chat.approvalCards).toContainText("lantern at the quay");
    expect(mcp.calls).toEqual([]);
    await chat.approve.click();
    await chat.waitForReplyDone();
    await expect(chat.lastAssistantText()).toContainText(returned);
    await expect(chat.lastAssistantText()).toContainText("lantern at the quay");
    expect(mcp.calls).toEqual([{ name: TOOL, args: { text: "lantern at the quay" } }]);

    // Marked read-only in Settings, the next call runs without asking.
    const threadUrl = page.url();
    await page.goto("/settings");
    const readOnly = serverCard(page, "words").getByRole("checkbox", {
      name: `${TOOL} is read-only (runs without approval)`,
    });
    const saved = page.waitForResponse(
      (r) => r.request().method() === "PATCH" && r.url().includes("/api/tool-servers/"),
    );
    await readOnly.click();
    expect((await saved).status()).toBe(200);
    await expect(readOnly).toBeChecked();
    await expect(serverCard(page, "words")).toContainText("(runs without asking)");
    await page.goto(threadUrl);
    await chat.waitForReplyDone();
    const cards = await chat.approvalCards.count();
    await chat.sendMessage(`call ${toolName} {"text": "harbour lights"}`);
    await chat.waitForReplyDone();
    await expect(chat.lastAssistantText()).toContainText(returned);
    await expect(chat.lastAssistantText()).toContainText("harbour lights");
    expect(await chat.approvalCards.count()).toBe(cards);
    expect(mcp.calls).toHaveLength(2);

    // The server stops: the same call is a tool error, and the reply says so.
    await mcp.stop();
    await chat.sendMessage(`call ${toolName} {"text": "harbour lights"}`);
    await chat.waitForReplyDone();
    await expect(chat.lastAssistantText()).toContainText(failed);
    await expect(chat.lastAssistantText()).toContainText(/could not reach 127\.0\.0\.1/);
    await expect(chat.lastAssistantText()).not.toContainText("returned");

    // Settings still lists the tool; a refresh names the failure and keeps the list.
    await page.goto("/settings");
    const stopped = serverCard(page, "words");
    await expect(stopped.locator(`[data-tool="${TOOL}"]`)).toBeVisible();
    await stopped.getByRole("button", { name: "Refresh words" }).click();
    await expect(stopped.getByTestId("tool-server-error")).toBeVisible();
    await expect(stopped.locator(`[data-tool="${TOOL}"]`)).toBeVisible();

    // Pictures at a desktop's and a phone's width, light and dark (looked at by hand).
    // The page scrolls inside its own panel, so a tall viewport shows the whole section.
    await page.setViewportSize({ width: 1280, height: 2000 });
    await section(page).screenshot({ path: `${SHOTS}/section-1280.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectInsideViewport(page);
    await page.setViewportSize({ width: 390, height: 2400 });
    await section(page).screenshot({ path: `${SHOTS}/section-390.png` });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForTimeout(300); // colours fade in; only for the picture
    await section(page).screenshot({ path: `${SHOTS}/section-390-dark.png` });
  } finally {
    await mcp.stop();
  }
});

test("adding refuses bad input next to its field; a server is removed with the keyboard after a confirmation", async ({
  page,
}) => {
  const mcp = await startToolServer();
  try {
    await new ChatPage(page).openNew();
    await page.goto("/settings");
    await expect(section(page).getByText("No tool servers yet.")).toBeVisible();

    // A URL that is no URL: refused next to the URL field, which gets focus; nothing is stored.
    await addServer(page, { slug: "notes", url: "not a url" });
    const url = page.getByRole("form", { name: "Add a tool server" }).getByLabel("URL", {
      exact: true,
    });
    await expect(url).toHaveAttribute("aria-invalid", "true");
    await expect(url).toBeFocused();
    const listed = async () =>
      ((await (await page.request.get("/api/tool-servers")).json()) as { servers: unknown[] })
        .servers;
    expect(await listed()).toEqual([]);

    // A good one, then the same name again: refused, the first one stays.
    await addServer(page, { slug: "notes", url: mcp.url });
    await expect(serverCard(page, "notes").locator(`[data-tool="${TOOL}"]`)).toBeVisible();
    await expect(serverCard(page, "notes").getByTestId("token-state")).toHaveText("No token");
    await addServer(page, { slug: "notes", url: mcp.url });
    const name = page.getByRole("form", { name: "Add a tool server" }).getByLabel("Name", {
      exact: true,
    });
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toBeFocused();
    await expect(page.getByRole("form", { name: "Add a tool server" })).toContainText("taken");
    expect(await listed()).toHaveLength(1);

    // Its URL changes in place: a bad one is refused next to the field and changes nothing; a
    // good one is stored and the tools are listed from there; Escape closes the form.
    const card = serverCard(page, "notes");
    const urlOf = async () => ((await listed()) as { url: string }[]).map((server) => server.url);
    await card.getByRole("button", { name: "Change the URL of notes" }).click();
    const urlForm = card.getByRole("form", { name: "URL of notes" });
    await urlForm.getByLabel("URL").fill("ftp://tools.example.test/mcp");
    await urlForm.getByRole("button", { name: "Save URL" }).click();
    await expect(urlForm.getByLabel("URL")).toHaveAttribute("aria-invalid", "true");
    await expect(urlForm.getByRole("alert")).toContainText("http");
    expect(await urlOf()).toEqual([mcp.url]);
    const moved = await startToolServer();
    try {
      await urlForm.getByLabel("URL").fill(moved.url);
      await urlForm.getByRole("button", { name: "Save URL" }).click();
      await expect(card.getByText(moved.url)).toBeVisible();
      await expect(card.getByRole("button", { name: "Change the URL of notes" })).toBeFocused();
      expect(await urlOf()).toEqual([moved.url]);
      await expect(card.locator(`[data-tool="${TOOL}"]`)).toBeVisible();
      await card.getByRole("button", { name: "Change the URL of notes" }).click();
      await page.keyboard.press("Escape");
      await expect(urlForm).toHaveCount(0);
      expect(await urlOf()).toEqual([moved.url]);
    } finally {
      await moved.stop();
    }

    // At a phone's width every control stays on screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectInsideViewport(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Remove, by keyboard: the confirmation takes focus on Keep; Shift+Tab reaches Remove now.
    const remove = serverCard(page, "notes").getByRole("button", { name: "Remove notes" });
    await remove.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: "Keep" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(remove).toBeVisible();
    expect(await listed()).toHaveLength(1);
    await remove.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Shift+Tab");
    await expect(page.getByRole("button", { name: "Confirm removing notes" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(serverCard(page, "notes")).toHaveCount(0);
    await expect(section(page).getByText("No tool servers yet.")).toBeVisible();
    expect(await listed()).toEqual([]);
  } finally {
    await mcp.stop();
  }
});
