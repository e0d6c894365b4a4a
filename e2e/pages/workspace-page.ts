import { expect, type Locator, type Page } from "@playwright/test";
import { SessionPage } from "./session-page";

/** One reply row's content in order: `tool:<name> <summary> <status>` or `text`. */
export type BlockShape = string;

/** The chat view's agent features: tool and approval cards, the plan checklist, the Files panel. */
export class WorkspacePage extends SessionPage {
  readonly toolCards: Locator;
  readonly approvalCards: Locator;
  readonly approve: Locator;
  readonly deny: Locator;
  readonly allowForSession: Locator;
  readonly filesToggle: Locator;
  readonly filesPanel: Locator;
  readonly fileEntries: Locator;
  readonly plan: Locator;
  readonly planToggle: Locator;
  readonly planItems: Locator;

  constructor(page: Page) {
    super(page);
    this.toolCards = page.getByTestId("tool-card");
    this.approvalCards = page.getByTestId("approval-card");
    this.approve = page.getByRole("button", { name: "Approve", exact: true });
    this.deny = page.getByRole("button", { name: "Deny", exact: true });
    this.allowForSession = page.getByRole("button", { name: "Allow for this session" });
    this.filesToggle = page.getByRole("button", { name: "Files", exact: true });
    this.filesPanel = page.getByTestId("files-panel");
    this.fileEntries = this.filesPanel.getByTestId("file-entry");
    this.plan = page.getByTestId("plan-checklist");
    this.planToggle = this.plan.getByRole("button", { name: /^Plan \d+\/\d+/ });
    this.planItems = this.plan.getByTestId("plan-item");
  }

  toolCard(tool: string): Locator {
    return this.page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`);
  }

  fileEntry(path: string): Locator {
    return this.filesPanel.locator(`[data-testid="file-entry"][data-path="${path}"]`);
  }

  async openFiles() {
    if (!(await this.filesPanel.isVisible())) await this.filesToggle.click();
    await expect(this.filesPanel).toBeVisible();
  }

  async closeFiles() {
    await this.filesPanel.getByRole("button", { name: "Close files" }).click();
    await expect(this.filesPanel).toBeHidden();
  }

  /** The paths the Files panel lists (the workspace files, not the tool results). */
  async listedPaths(): Promise<string[]> {
    return this.fileEntries.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute("data-path") ?? ""),
    );
  }

  async expandPlan() {
    if ((await this.planToggle.getAttribute("aria-expanded")) !== "true") {
      await this.planToggle.click();
    }
    await expect(this.planToggle).toHaveAttribute("aria-expanded", "true");
  }

  /** Presses Tab (or Shift+Tab) until `target` has focus: it is keyboard reachable. */
  async tabTo(target: Locator, direction: "forward" | "backward" = "forward", max = 60) {
    const key = direction === "forward" ? "Tab" : "Shift+Tab";
    for (let i = 0; i < max; i++) {
      if (await target.evaluate((el) => el === document.activeElement)) return;
      await this.page.keyboard.press(key);
    }
    throw new Error("could not reach the element with the keyboard");
  }

  /**
   * Every row of the list in order (read by scrolling it, like `allRows`) with the shape of each
   * reply: a divider as `divider N`, a user message as `user`, a reply as its blocks
   * (`tool:<name>` or `text`).
   */
  async rowShapes(): Promise<string[][]> {
    const rows = new Map<number, string[]>();
    const read = async () => {
      for (const [index, shape] of await this.renderedShapes()) rows.set(index, shape);
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
      if (done) break;
    }
    await read();
    return [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, shape]) => shape);
  }

  private async renderedShapes(): Promise<[number, string[]][]> {
    return this.scroller.locator("[data-index]").evaluateAll((nodes) =>
      nodes.map((node): [number, string[]] => [
        Number(node.getAttribute("data-index")),
        (() => {
          const divider = node.querySelector('[data-testid="session-divider"]');
          if (divider) return [`divider ${divider.getAttribute("data-session-number")}`];
          const message = node.querySelector('[data-testid="message"]');
          if (!message) return ["other"];
          if (message.getAttribute("data-role") === "user") return ["user"];
          const body = message.querySelector('[data-testid="assistant-text"]');
          const blocks: string[] = [];
          for (const child of body?.children ?? []) {
            const tool = child.getAttribute("data-tool");
            const block = tool ? `tool:${tool}` : "text";
            // A markdown block may render as several elements: one "text" for a run of them.
            if (block !== "text" || blocks.at(-1) !== "text") blocks.push(block);
          }
          return blocks;
        })(),
      ]),
    );
  }
}
