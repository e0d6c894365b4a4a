import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { sameOrigin } from "./pages/same-origin";

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

async function signUp(page: Page): Promise<string> {
  await new ChatPage(page).openNew();
  const email = `agent-owner-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText(email)).toBeVisible();
  return email;
}

test("a token made in settings lets an agent hand off work that the user continues from the home page", async ({
  page,
  playwright,
  browser,
}) => {
  await signUp(page);

  // Create a token: it is shown once, then only its prefix is listed.
  await page.goto("/settings");
  await page.getByLabel("Token name").fill("trip agent");
  await page.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByTestId("new-token");
  await expect(shown).toHaveText(/^bt_[A-Za-z0-9_-]{43}$/);
  const token = (await shown.textContent()) ?? "";
  const tokens = page.getByRole("table");
  await expect(tokens).toContainText("trip agent");
  await expect(tokens).toContainText(`${token.slice(0, 10)}…`);
  await page.reload();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  await expect(page.getByText(token)).toHaveCount(0);
  await expect(page.getByRole("table")).toContainText("trip agent");

  // An agent (no browser cookies) writes a handoff with the token; a retry is a duplicate.
  const agent = await playwright.request.newContext({
    baseURL: new URL(page.url()).origin,
    extraHTTPHeaders: { authorization: `Bearer ${token}` },
  });
  try {
    const packet = {
      key: "lisbon-trip",
      artifact: {
        goal: "Plan the Lisbon trip",
        state_summary: "Ferry booked, hotel open",
        confirmed_facts: ["the ferry leaves at nine"],
        remaining_tasks: [{ id: "t1", task: "book the hotel" }],
      },
    };
    const written = await agent.post("/api/handoffs", { data: packet });
    expect(written.status()).toBe(201);
    const record = await written.json();
    expect(record.created_by).toMatch(/^token:/);
    const again = await agent.post("/api/handoffs", { data: packet });
    expect(again.status()).toBe(200);
    expect((await again.json()).id).toBe(record.id);

    // The home page lists it; listing sends nothing.
    const chat = new ChatPage(page);
    await chat.openNew();
    const list = page.getByRole("region", { name: "Continue where you left off" });
    await expect(list).toBeVisible();
    await expect(list.getByTestId("open-handoff")).toHaveCount(1);
    await expect(list).toContainText("Plan the Lisbon trip");
    await expect(list).toContainText("Ferry booked, hotel open");
    await expect(chat.messages).toHaveCount(0);

    await list.getByRole("button", { name: "Continue: Plan the Lisbon trip" }).click();
    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    await expect(chat.composer).toBeVisible();
    await expect(chat.messages).toHaveCount(0);

    // Its first row is the brief it continues, not the empty "What are we working on?" state.
    const brief = page.locator('[data-testid="session-divider"][data-session-number="1"]');
    await expect(brief.getByTestId("continued-from")).toHaveText(
      /^Continued from lisbon-trip · revision 1/,
    );
    await expect(brief.getByTestId("handoff-answers")).toContainText("Plan the Lisbon trip");
    await expect(brief.getByTestId("handoff-answers")).toContainText("the ferry leaves at nine");
    await expect(page.getByText("What are we working on?")).toHaveCount(0);
    await page.reload();
    await expect(brief.getByTestId("continued-from")).toHaveText(
      /^Continued from lisbon-trip · revision 1/,
    );
    expect(await seriousViolations(page)).toEqual([]);

    // The share page names the handoff without its key.
    const threadId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    const shareAnswer = await page.request.post(`/api/threads/${threadId}/share`, {
      headers: sameOrigin(page),
    });
    const shareUrl = ((await shareAnswer.json()) as { url: string }).url;
    const visitor = await browser.newContext();
    try {
      const shared = await visitor.newPage();
      await shared.goto(shareUrl);
      const sharedBrief = shared.locator(
        '[data-testid="session-divider"][data-session-number="1"]',
      );
      await expect(sharedBrief.getByTestId("continued-from")).toHaveText(
        /^Continued from a handoff · revision 1/,
      );
      await expect(sharedBrief.getByTestId("handoff-answers")).toContainText(
        "the ferry leaves at nine",
      );
      await expect(shared.getByText("lisbon-trip")).toHaveCount(0);
    } finally {
      await visitor.close();
    }

    // The new session starts from the handoff's brief.
    await chat.sendMessage("what do you know?");
    await chat.waitForReplyDone();
    await expect(chat.lastAssistantText()).toContainText("the ferry leaves at nine");

    // Continuing accepted it: it is no longer open.
    const after = await agent.get("/api/handoffs/lisbon-trip");
    expect((await after.json()).state).toBe("accepted");
    await chat.openNew();
    await expect(page.getByRole("region", { name: "Continue where you left off" })).toHaveCount(0);

    // Revoked in settings, the token stops working at once.
    await page.goto("/settings");
    await page.getByRole("button", { name: "Revoke trip agent" }).click();
    await page.getByRole("button", { name: "Confirm revoking trip agent" }).click();
    await expect(page.getByText("No API tokens.")).toBeVisible();
    const refused = await agent.get("/api/handoffs/lisbon-trip");
    expect(refused.status()).toBe(401);
    expect((await refused.json()).error.code).toBe("unauthorized:token");
  } finally {
    await agent.dispose();
  }
});

test("the continue list steps aside once a new chat starts, and grooming reports what it kept", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.openNew();
  // A guest's browser session may write handoffs (every scope), but not create tokens.
  const written = await page.request.post("/api/handoffs", {
    headers: sameOrigin(page),
    data: { key: "notes-1", artifact: { goal: "Sort the photos", state_summary: "Half done" } },
  });
  expect(written.status()).toBe(201);
  await page.reload();
  const list = page.getByRole("region", { name: "Continue where you left off" });
  await expect(list).toContainText("Sort the photos");

  await chat.sendMessage("Hello there, a brand new topic");
  await expect(page).toHaveURL(/\/chat\//);
  await expect(list).toHaveCount(0);
  await chat.waitForReplyDone();

  await page.goto("/settings");
  await expect(page.getByRole("link", { name: "Sign up" }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Create token" })).toHaveCount(0);
  await page.getByRole("button", { name: "Groom handoffs" }).click();
  const result = page.getByTestId("groom-result");
  await expect(result).toContainText("Deleted 0, kept 1.");
  await expect(result).toContainText("notes-1");
});
