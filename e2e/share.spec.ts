import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { sameOrigin } from "./pages/same-origin";
import { SessionPage } from "./pages/session-page";
import { seedFor, signIn } from "./support/long-thread-seed";

const SECRET = "sk-proj-Zq7Xw3Vb9Nm4Lk2Jh8Gf6Ds5Ap1";

/** Violations a user of assistive technology would hit hard: serious and critical ones. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

interface OwnerPage {
  sessions: { id: string; handoff: { key: string; id: string } | null }[];
  messages: { id: string }[];
  olderCursor: number | null;
}

/**
 * What a visitor must never see of a thread: its id, every message id, every session id and
 * each handoff's key and content id — read from the owner's thread API, every page of it.
 */
async function idsOf(owner: APIRequestContext, threadId: string): Promise<string[]> {
  const ids = new Set([threadId]);
  let beforeSeq: number | null = null;
  for (let i = 0; i < 100; i++) {
    const query = beforeSeq === null ? "" : `&beforeSeq=${beforeSeq}`;
    const response = await owner.get(`/api/threads/${threadId}?limit=500${query}`);
    expect(response.status()).toBe(200);
    const view = (await response.json()) as OwnerPage;
    for (const m of view.messages) ids.add(m.id);
    for (const s of view.sessions) {
      ids.add(s.id);
      if (s.handoff) {
        ids.add(s.handoff.key);
        ids.add(s.handoff.id);
      }
    }
    beforeSeq = view.olderCursor;
    if (beforeSeq === null) break;
  }
  return [...ids];
}

function leaked(text: string, ids: readonly string[]): string[] {
  return ids.filter((id) => text.includes(id));
}

/** Bodies of the shared view's paging requests, as the browser received them. */
function recordPaging(page: Page, token: string) {
  const answers: { url: string; status: number; body: Promise<string> }[] = [];
  page.on("response", (response) => {
    if (!response.url().includes(`/share/${token}/messages`)) return;
    answers.push({
      url: response.url(),
      status: response.status(),
      body: response.text().catch(() => ""),
    });
  });
  return answers;
}

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
  await chat.resetThroughDraft();
  await expect(chat.divider(2)).toContainText("Session 2 started", { timeout: 30_000 });
  await chat.sendMessage("todo write the release notes");
  await chat.waitForReplyDone();
  const threadId = chat.threadId();
  const ids = await idsOf(page.request, threadId);
  // The thread, four messages, two sessions, one handoff's content id.
  expect(ids.length).toBeGreaterThanOrEqual(8);

  expect(await seriousViolations(page)).toEqual([]);

  // Opening Share makes nothing public: the thread has no link until the user creates one.
  await chat.shareButton.click();
  await expect(page.getByText("This thread is private.")).toBeVisible();
  const before = await page.request.get(`/api/threads/${threadId}/share`);
  expect(await before.json()).toEqual({ token: null, url: null });
  await page.getByRole("button", { name: "Create link" }).click();
  const linkField = page.getByRole("textbox", { name: "Share link" });
  await expect(linkField).toHaveValue(/\/share\/[A-Za-z0-9_-]{43}$/);
  const url = await linkField.inputValue();
  // Sharing again hands out the same link.
  const again = await page.request.post(`/api/threads/${threadId}/share`, {
    headers: sameOrigin(page),
  });
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
    await view.listReady();
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
    // No id of the thread's in the page, its flight data included.
    expect(leaked((await response?.text()) ?? "", ids)).toEqual([]);
    expect(leaked(await shared.content(), ids)).toEqual([]);

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
  const fresh = await page.request.post(`/api/threads/${threadId}/share`, {
    headers: sameOrigin(page),
  });
  expect(fresh.status()).toBe(201);
  expect(((await fresh.json()) as { url: string }).url).not.toBe(url);
  expect(
    (
      await page.request.delete(`/api/threads/${threadId}/share`, { headers: sameOrigin(page) })
    ).status(),
  ).toBe(204);

  // Only the owner shares: another guest gets 404, no session gets 401.
  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await new SessionPage(otherPage).openNew();
    const denied = await otherPage.request.post(`/api/threads/${threadId}/share`, {
      headers: sameOrigin(otherPage),
    });
    expect(denied.status()).toBe(404);
    expect(
      (
        await otherPage.request.delete(`/api/threads/${threadId}/share`, {
          headers: sameOrigin(otherPage),
        })
      ).status(),
    ).toBe(404);
  } finally {
    await other.close();
  }
  const anonymous = await playwright.request.newContext({ baseURL });
  try {
    expect(
      (
        await anonymous.post(`/api/threads/${threadId}/share`, { headers: sameOrigin(page) })
      ).status(),
    ).toBe(401);
  } finally {
    await anonymous.dispose();
  }
});

const FILLER =
  "Some ordinary chatter about the harbour, the trains, the weather and the long walk along the " +
  "river that we took yesterday afternoon before the rain started again";

test.describe("@reset-server a shared thread of three sessions", () => {
  test("shows its dividers and handoff cards with no message id, thread id or handoff key", async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    const chat = new SessionPage(page);
    await chat.openNew();
    await chat.sendMessage("remember the locker code is 7319");
    await chat.waitForReplyDone();
    // Past the tiny context window a threshold reset starts session 2; its record (handoff
    // included) is stored in the thread's messages.
    for (let turn = 1; turn <= 15 && (await chat.divider(2).count()) === 0; turn++) {
      await chat.sendMessage(`${FILLER} (${turn})`);
      await chat.waitForReplyDone();
    }
    await expect(chat.divider(2)).toContainText("Session 2 started", { timeout: 30_000 });
    await chat.resetThroughDraft();
    await expect(chat.divider(3)).toContainText("Session 3 started", { timeout: 30_000 });
    await chat.sendMessage("what do you know?");
    await chat.waitForReplyDone();
    const threadId = chat.threadId();
    const ids = await idsOf(page.request, threadId);

    const shared = await page.request.post(`/api/threads/${threadId}/share`, {
      headers: sameOrigin(page),
    });
    expect(shared.status()).toBe(201);
    const url = ((await shared.json()) as { url: string }).url;
    const token = url.split("/").at(-1) ?? "";

    const visitor = await browser.newContext();
    try {
      const view = await visitor.newPage();
      const paging = recordPaging(view, token);
      const response = await view.goto(url);
      expect(response?.status()).toBe(200);
      const html = (await response?.text()) ?? "";
      const reader = new SessionPage(view);
      await reader.listReady();
      for (const [number, trigger] of [
        [2, "context threshold reached"],
        [3, "started manually"],
      ] as const) {
        await expect(reader.divider(number)).toContainText(`Session ${number} started`);
        await expect(reader.divider(number)).toContainText(trigger);
        await reader.divider(number).scrollIntoViewIfNeeded();
        await reader
          .divider(number)
          .getByRole("button", { name: `Expand handoff for session ${number}` })
          .click();
        await expect(reader.divider(number).getByTestId("handoff-details")).toContainText(
          "locker code is 7319",
        );
      }
      await expect(reader.navigator.getByRole("button", { name: "Session 3" })).toBeVisible();
      await reader.navigator.getByRole("button", { name: "Session 1" }).click();
      await expect(reader.userMessages.first()).toContainText("locker code is 7319");
      await expect(reader.userMessages.first()).toBeInViewport();

      expect(html).toContain("self.__next_f");
      expect(leaked(html, ids)).toEqual([]);
      expect(leaked(await view.content(), ids)).toEqual([]);
      for (const answer of paging) expect(leaked(await answer.body, ids)).toEqual([]);
    } finally {
      await visitor.close();
      await page.request.delete(`/api/threads/${threadId}/share`, { headers: sameOrigin(page) });
    }
  });
});

/** The numbers of the seeded messages ("Message N: …") in the scroller's view. */
async function messagesInView(page: Page): Promise<number[]> {
  return page.getByTestId("message-scroller").evaluate((scroller) => {
    const box = scroller.getBoundingClientRect();
    return [...scroller.querySelectorAll('[data-testid="message"]')].flatMap((row) => {
      const r = row.getBoundingClientRect();
      if (r.bottom <= box.top || r.top >= box.bottom) return [];
      const match = /Message (\d+):/.exec(row.textContent ?? "");
      return match ? [Number(match[1])] : [];
    });
  });
}

test.describe("@long-thread a shared 10,000-message thread", () => {
  test("pages by cursors into any session and stretch, with no id of the thread's", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const seed = seedFor(baseURL);
    await signIn(page, seed);
    const ids = await idsOf(page.request, seed.threadId);
    expect(ids.length).toBeGreaterThan(seed.messages);
    const shared = await page.request.post(`/api/threads/${seed.threadId}/share`, {
      headers: sameOrigin(page),
    });
    expect(shared.status()).toBe(201);
    const url = ((await shared.json()) as { url: string }).url;
    const token = url.split("/").at(-1) ?? "";
    const perSession = seed.messages / seed.sessions;

    const visitor = await browser.newContext();
    try {
      const view = await visitor.newPage();
      const paging = recordPaging(view, token);
      const response = await view.goto(url);
      expect(response?.status()).toBe(200);
      const html = (await response?.text()) ?? "";
      await expect(view.getByText(`Message ${seed.messages}:`)).toBeInViewport();

      // A session's start, through its cursor.
      await jumpTo(view, 5);
      const divider = view.locator('[data-testid="session-divider"][data-session-number="5"]');
      await expect(divider).toBeInViewport();
      await expect(view.getByText(`Message ${4 * perSession + 1}:`)).toBeVisible();
      await jumpTo(view, 1);
      await expect(view.getByText("Message 1:", { exact: false })).toBeInViewport();

      // The middle of session 3, far from any loaded page: opened from a cursor and a skip.
      await jumpTo(view, 3);
      await expect(view.getByText(`Message ${2 * perSession + 1}:`)).toBeVisible();
      await view.getByTestId("message-scroller").evaluate((el) => {
        el.scrollTop += 600 * 96;
      });
      await expect
        .poll(async () => {
          const seen = await messagesInView(view);
          return seen.some((n) => n > 2 * perSession + 200 && n <= 3 * perSession);
        })
        .toBe(true);

      const urls = paging.map((p) => new URL(p.url).searchParams);
      expect(urls.some((q) => q.has("from") && !q.has("skip"))).toBe(true);
      expect(urls.some((q) => q.has("before"))).toBe(true);
      expect(urls.some((q) => Number(q.get("skip")) > 0)).toBe(true);
      for (const q of urls) {
        expect([...q.keys()].every((k) => ["before", "from", "skip", "limit"].includes(k))).toBe(
          true,
        );
      }
      for (const answer of paging) {
        expect(answer.status).toBe(200);
        expect(leaked(await answer.body, ids)).toEqual([]);
      }
      expect(leaked(html, ids)).toEqual([]);
      expect(leaked(await view.content(), ids)).toEqual([]);
    } finally {
      await visitor.close();
      await page.request.delete(`/api/threads/${seed.threadId}/share`, {
        headers: sameOrigin(page),
      });
    }
  });
});
