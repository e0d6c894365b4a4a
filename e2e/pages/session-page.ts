import { expect, type Locator, type Page } from "@playwright/test";
import { ChatPage } from "./chat-page";

/** One rendered row of the thread's list, as a reader sees it. */
export interface ListRow {
  index: number;
  text: string;
}

/** The chat view's session features: dividers, live resets, queueing, navigator, meter, share. */
export class SessionPage extends ChatPage {
  readonly dividers: Locator;
  readonly resetPlaceholder: Locator;
  readonly cancelReset: Locator;
  readonly queue: Locator;
  readonly newSession: Locator;
  readonly meter: Locator;
  readonly navigator: Locator;
  readonly scroller: Locator;
  readonly shareButton: Locator;
  /** The drafted handoff a reviewed reset waits at, and its commit button. */
  readonly draftEditor: Locator;
  readonly startNewSession: Locator;

  constructor(page: Page) {
    super(page);
    this.dividers = page.getByTestId("session-divider");
    this.resetPlaceholder = page.getByTestId("reset-placeholder");
    this.cancelReset = page.getByRole("button", { name: "Cancel reset" });
    this.queue = page.getByRole("button", { name: "Queue", exact: true });
    this.newSession = page.getByRole("button", { name: "New session with handoff" });
    this.meter = page.getByRole("meter", { name: "Context used" });
    this.navigator = page.getByRole("navigation", { name: "Sessions" });
    this.scroller = page.getByTestId("message-scroller");
    this.shareButton = page.getByRole("button", { name: "Share", exact: true });
    this.draftEditor = page.getByTestId("draft-editor");
    this.startNewSession = this.draftEditor.getByRole("button", { name: "Start new session" });
  }

  /**
   * A manual reset as the default agent runs it (it reviews manual resets): the button drafts
   * the handoff, and the draft is committed as it stands.
   */
  async resetThroughDraft() {
    await this.newSession.click();
    await expect(this.draftEditor).toBeVisible({ timeout: 30_000 });
    await this.startNewSession.click();
    await expect(this.draftEditor).toBeHidden({ timeout: 30_000 });
  }

  divider(sessionNumber: number): Locator {
    return this.page.locator(
      `[data-testid="session-divider"][data-session-number="${sessionNumber}"]`,
    );
  }

  /** Opens Share and creates the thread's link (opening the panel alone creates none). */
  async createShareLink(): Promise<void> {
    await this.shareButton.click();
    await this.page.getByRole("button", { name: "Create link" }).click();
  }

  toast(text: string | RegExp): Locator {
    return this.page.locator("[data-sonner-toast]").filter({ hasText: text });
  }

  /**
   * Once the browser has taken the list over. Until then the rows are the first HTML's: a click
   * on one of their buttons before the page's scripts run does nothing.
   */
  async listReady() {
    await expect(this.scroller.locator("[data-index]").first()).toBeAttached();
  }

  /**
   * Scrolls the list to its top once the browser has taken it over: the first HTML is a plain
   * column of the newest rows, and the opening scroll to the newest row may still run (it would
   * undo a scroll made meanwhile), so the top is set until it stays.
   */
  async scrollListToTop() {
    await this.listReady();
    await expect
      .poll(
        () =>
          this.scroller.evaluate(async (el) => {
            el.scrollTop = 0;
            await new Promise((resolve) => setTimeout(resolve, 100));
            return el.scrollTop;
          }),
        { timeout: 15_000 },
      )
      .toBe(0);
  }

  /**
   * Every row of the virtualized list in order, read by scrolling it from top to bottom (only
   * rows near the view are in the DOM): `user: …`, `assistant: …` or `divider N`.
   */
  async allRows(): Promise<string[]> {
    const rows = new Map<number, string>();
    const read = async () => {
      const seen = await this.scroller.locator("[data-index]").evaluateAll((nodes) =>
        nodes.map((node) => {
          const index = Number(node.getAttribute("data-index"));
          const divider = node.querySelector('[data-testid="session-divider"]');
          if (divider)
            return { index, text: `divider ${divider.getAttribute("data-session-number")}` };
          const message = node.querySelector('[data-testid="message"]');
          if (message) {
            const role = message.getAttribute("data-role");
            const body =
              role === "assistant"
                ? message.querySelector('[data-testid="assistant-text"]')?.textContent
                : message.firstElementChild?.textContent;
            return { index, text: `${role}: ${(body ?? "").trim()}` };
          }
          return { index, text: node.textContent?.trim() ? "other" : "empty" };
        }),
      );
      for (const row of seen) rows.set(row.index, row.text);
    };
    await this.scrollListToTop();
    for (let step = 0; step < 200; step++) {
      await this.page.waitForTimeout(50);
      await read();
      const done = await this.scroller.evaluate((el) => {
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - 1) return true;
        el.scrollTop += el.clientHeight / 2;
        return false;
      });
      if (done) {
        await this.page.waitForTimeout(50);
        await read();
        break;
      }
    }
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, text]) => text);
  }

  /** Sends filler until a turn starts a context reset; resolves once its placeholder shows. */
  async chatUntilReset(filler: string, maxTurns = 15): Promise<number> {
    for (let turn = 1; turn <= maxTurns; turn++) {
      await this.sendMessage(`${filler} (${turn})`);
      // The turn has begun once Stop shows (or, if it reset at once, the placeholder).
      await expect(this.stop.or(this.resetPlaceholder)).toBeVisible();
      let outcome = "waiting";
      await expect
        .poll(
          async () => {
            if (await this.resetPlaceholder.isVisible()) outcome = "reset";
            else if (!(await this.stop.isVisible()) && (await this.send.isVisible())) {
              outcome = "done";
            }
            return outcome;
          },
          { timeout: 30_000, intervals: [50] },
        )
        .not.toBe("waiting");
      if (outcome === "reset") return turn;
    }
    throw new Error(`no context reset after ${maxTurns} turns`);
  }
}
