// Review before replace: a reset stops at a drafted handoff the user edits, then commits ("Start
// new session") or cancels ("Keep this session"). Manual resets under the default agent (review
// "manual"), threshold resets under an agent that reviews "always", and a restart while a draft
// waits. Each scenario runs on a server of its own: the threshold ones need a tiny window, and the
// restart kills its server.
import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { ReviewPage } from "./pages/review-page";
import {
  freePort,
  freshStore,
  type ServerProcess,
  type ServerStore,
  startServer,
} from "./support/server-process";

const SHOTS = "/tmp/shots-review";

const FILLER =
  "Some ordinary chatter about the harbour, the trains, the weather and the long walk along the " +
  "river that we took yesterday afternoon before the rain started again and again";

interface ThreadJson {
  sessions: { number: number; trigger: string; handoff: { artifact: HandoffArtifact } | null }[];
  messages: {
    role: string;
    parts: { type: string; text?: string }[];
    metadata?: { status?: string; sessionId?: string };
  }[];
  draft: { fromSession: number; artifact: HandoffArtifact } | null;
}

async function threadJson(page: Page, threadId: string): Promise<ThreadJson> {
  return page.evaluate(async (id) => {
    const response = await fetch(`/api/threads/${id}?limit=200`);
    if (!response.ok) throw new Error(`thread: ${response.status}`);
    return response.json();
  }, threadId);
}

async function open(page: Page, url: string): Promise<ReviewPage> {
  const chat = new ReviewPage(page);
  await page.goto(`${url}/`);
  await expect(chat.composer).toBeVisible();
  return chat;
}

test.describe("@own-server reset review", () => {
  test.describe.configure({ mode: "serial" });
  const stores: ServerStore[] = [];
  const servers: ServerProcess[] = [];

  test.afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const store of stores) await store.dispose();
  });

  test("a manual reset shows the draft; the user's edits are exactly what the new session starts from", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const store = await freshStore();
    stores.push(store);
    const server = await startServer({ env: { ...store.env, BATON_LOCAL_DELAY_MS: "10" } });
    servers.push(server);
    const chat = await open(page, server.url);

    await chat.sendMessage("Let's plan the office move together");
    await chat.waitForReplyDone();
    for (const line of [
      "done measured room A",
      "done measured room B",
      "note the lift is small",
      "note the stairs are steep",
    ]) {
      await chat.sendMessage(line);
      await chat.waitForReplyDone();
    }
    const threadId = chat.threadId();

    // The default agent reviews manual resets: the button opens the draft, no session yet.
    await chat.newSession.click();
    await expect(chat.editor).toBeVisible({ timeout: 30_000 });
    await expect(chat.dividers).toHaveCount(0);
    await expect(chat.editor.getByRole("term")).toHaveText([
      "Goal",
      "Known",
      "Unknown",
      "Done",
      "Needs authorization",
    ]);
    await expect(chat.list("Completed work")).toContainText("measured room A");
    await expect(chat.list("Confirmed facts")).toContainText("the lift is small");
    mkdirSync(SHOTS, { recursive: true });
    // Its top (title, five answers, goal) and its end (the buttons) at a desktop width.
    await chat.editor.getByRole("heading", { name: /Review the handoff/ }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/editor-1280-top.png` });
    await chat.startNewSession.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/editor-1280.png` });
    // At a phone's width nothing overflows sideways; dark mode stays readable (looked at).
    await page.setViewportSize({ width: 390, height: 844 });
    await chat.editor.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/editor-390.png` });
    const overflows = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    );
    expect(overflows).toBe(false);
    await page.emulateMedia({ colorScheme: "dark" });
    await chat.editor.getByRole("heading", { name: /Review the handoff/ }).scrollIntoViewIfNeeded();
    // Buttons fade their colours in: let the change of scheme settle before the picture.
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}/editor-390-dark.png` });
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 800 });

    // An invalid edit is refused with the reason next to its field, and nothing is committed.
    await chat.field("Next step").fill("x".repeat(20_001));
    await chat.startNewSession.click();
    await expect(chat.editor.getByRole("alert").first()).toContainText(/20000|20,000|too/i);
    await expect(chat.field("Next step")).toHaveAttribute("aria-invalid", "true");
    expect((await threadJson(page, threadId)).sessions).toHaveLength(1);

    await chat.field("Next step").fill("book the van");
    await chat.field("Goal").fill("Move the office by June");
    await chat.remove("measured room A", "Completed work").click();
    await chat.pin("the lift is small").click();
    await expect(chat.list("Must preserve (pinned)")).toContainText("the lift is small");
    await expect(chat.list("Confirmed facts")).not.toContainText("the lift is small");
    // The five answers follow the edits.
    await expect(chat.editor.getByRole("definition").first()).toHaveText("Move the office by June");
    await expect(chat.editor.getByRole("definition").nth(1)).toContainText(
      "Pinned: the lift is small",
    );

    await chat.startNewSession.click();
    await expect(chat.divider(2)).toContainText("Session 2 started", { timeout: 30_000 });
    await expect(chat.editor).toBeHidden();
    await expect(chat.toast("Session 2 started — context was reset")).toBeVisible();

    const view = await threadJson(page, threadId);
    expect(view.draft).toBeNull();
    const brief = view.sessions[1]?.handoff?.artifact;
    expect(brief?.goal).toBe("Move the office by June");
    expect(brief?.next_step).toBe("book the van");
    expect(brief?.completed_work.join("\n")).not.toContain("measured room A");
    expect(brief?.completed_work.join("\n")).toContain("measured room B");
    expect(brief?.must_preserve).toContain("the lift is small");
    expect(brief?.confirmed_facts).not.toContain("the lift is small");
    expect(brief?.confirmed_facts).toContain("the stairs are steep");

    // The card shows the same.
    await chat.divider(2).getByRole("button", { name: "Expand handoff for session 2" }).click();
    const details = chat.divider(2).getByTestId("handoff-details");
    await expect(details).toContainText("Move the office by June");
    await expect(details).not.toContainText("measured room A");
    await expect(details).toContainText("the lift is small");

    // Unpinned on the card, the fact is not carried by the next reset's draft or handoff.
    await chat
      .divider(2)
      .getByRole("button", { name: /^Unpin the lift is small/ })
      .click();
    await expect(chat.divider(2)).toContainText("Unpinned");
    await chat.newSession.click();
    await expect(chat.editor).toBeVisible({ timeout: 30_000 });
    await expect(chat.list("Must preserve (pinned)")).not.toContainText("the lift is small");
    await chat.startNewSession.click();
    await expect(chat.divider(3)).toContainText("Session 3 started", { timeout: 30_000 });
    const next = (await threadJson(page, threadId)).sessions[2]?.handoff?.artifact;
    expect(next?.must_preserve).not.toContain("the lift is small");
  });

  test("under an agent that reviews every reset, a threshold reset stops at the draft; a queued message is answered after commit, after cancel, and a restart keeps the draft", async ({
    page,
  }) => {
    test.setTimeout(360_000);
    const store = await freshStore();
    stores.push(store);
    const port = await freePort();
    const env = {
      ...store.env,
      BATON_LOCAL_CONTEXT_WINDOW: "2000",
      BATON_LOCAL_HANDOFF_DELAY_MS: "1500",
      BATON_LOCAL_DELAY_MS: "10",
    };
    let server = await startServer({ env, port });
    servers.push(server);
    let chat = await open(page, server.url);
    await page.evaluate(async () => {
      const response = await fetch("/api/profiles", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id: "reviewer",
          name: "Reviewer",
          systemPrompt: "Help.",
          contextStrategy: "reset",
          reviewResets: "always",
        }),
      });
      if (response.status !== 201) throw new Error(`profile: ${response.status}`);
    });

    /** A new thread with the reviewer, filled until a threshold reset stops at its draft. */
    const untilDraft = async (fact: string) => {
      chat = await open(page, server.url);
      await page.getByRole("combobox", { name: "Agent" }).selectOption("reviewer");
      await chat.sendMessage(`remember ${fact}`);
      await chat.waitForReplyDone();
      const threadId = chat.threadId();
      for (let turn = 1; turn <= 15; turn++) {
        await chat.sendMessage(`${FILLER} (${turn})`);
        // The turn ended once Send is back, or the draft's editor (and Queue) took its place.
        await expect(chat.send.or(chat.editor)).toBeVisible({ timeout: 30_000 });
        await expect(chat.stop).toBeHidden({ timeout: 30_000 });
        // The stream's end and the re-read that shows the editor are a moment apart: ask the
        // thread whether a draft waits before sending more.
        if ((await threadJson(page, threadId)).draft) break;
      }
      await expect(chat.editor).toBeVisible({ timeout: 30_000 });
      await expect(chat.editor).toContainText("The context is nearly full.");
      return threadId;
    };

    const queue = async (text: string) => {
      await expect(chat.queue).toBeVisible();
      await chat.composer.fill(text);
      await chat.queue.click();
      const question = chat.userMessages.filter({ hasText: text });
      await expect(question.getByTestId("queued-badge")).toContainText(
        "waits for your review of the handoff",
      );
      return question;
    };

    // Commit: the queued question is answered in session 2, from the handoff, without a reload.
    const first = await untilDraft("the launch code is 4242");
    await page.screenshot({ path: `${SHOTS}/threshold-draft-1280.png` });
    const asked = await queue("what do you know?");
    await chat.startNewSession.click();
    await expect(chat.divider(2)).toContainText("context threshold reached", { timeout: 30_000 });
    await expect(asked.getByTestId("queued-badge")).toBeHidden({ timeout: 30_000 });
    // The answer's own text (an earlier reply already names 4242).
    await expect(
      page.getByTestId("assistant-text").filter({ hasText: "Here is everything" }).last(),
    ).toContainText("4242", { timeout: 30_000 });
    // Stored under its question once its stream has ended (a live reply is left out of a read).
    await expect
      .poll(
        async () => {
          const view = await threadJson(page, first);
          const at = view.messages.findIndex((m) =>
            m.parts.some((p) => p.text === "what do you know?"),
          );
          return at >= 0 ? (view.messages[at + 1]?.role ?? null) : null;
        },
        { timeout: 30_000 },
      )
      .toBe("assistant");
    const committed = await threadJson(page, first);
    expect(committed.sessions[1]?.trigger).toBe("threshold");

    // Cancel: the queued question is answered in session 1, which goes on.
    await untilDraft("the harbour gate is blue");
    await queue("what do you know?");
    await chat.keepSession.click();
    await expect(chat.editor).toBeHidden({ timeout: 30_000 });
    await expect(chat.toast(/Context reset cancelled/)).toBeVisible();
    await expect(
      page.getByTestId("assistant-text").filter({ hasText: "harbour gate is blue" }).last(),
    ).toBeVisible({ timeout: 30_000 });
    await expect(chat.dividers).toHaveCount(0);

    // A restart while a draft waits keeps it, and the question queued behind it.
    const third = await untilDraft("the van is green");
    await queue("what do you know?");
    await server.stop();
    server = await startServer({ env, port });
    servers.push(server);
    await page.goto(`${server.url}/chat/${third}`);
    await expect(chat.editor).toBeVisible({ timeout: 30_000 });
    await expect(
      chat.userMessages.filter({ hasText: "what do you know?" }).getByTestId("queued-badge"),
    ).toBeVisible();
    await chat.startNewSession.click();
    await expect(chat.divider(2)).toBeAttached({ timeout: 30_000 });
    await expect(
      page.getByTestId("assistant-text").filter({ hasText: "van is green" }).last(),
    ).toBeVisible({ timeout: 30_000 });
  });
});
