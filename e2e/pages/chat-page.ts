import { expect, type Locator, type Page } from "@playwright/test";

/** The chat view as a user sees it. */
export class ChatPage {
  readonly composer: Locator;
  readonly send: Locator;
  readonly stop: Locator;
  readonly messages: Locator;
  readonly assistantMessages: Locator;
  readonly userMessages: Locator;

  constructor(readonly page: Page) {
    this.composer = page.getByRole("textbox", { name: "Message" });
    this.send = page.getByRole("button", { name: "Send", exact: true });
    this.stop = page.getByRole("button", { name: "Stop", exact: true });
    this.messages = page.getByTestId("message");
    this.assistantMessages = page.locator('[data-testid="message"][data-role="assistant"]');
    this.userMessages = page.locator('[data-testid="message"][data-role="user"]');
  }

  /** Opens the new-chat page, waiting for the guest session to exist. */
  async openNew() {
    await this.page.goto("/");
    await expect(this.composer).toBeVisible();
  }

  async sendMessage(text: string) {
    await this.composer.fill(text);
    await this.composer.press("Enter");
  }

  lastAssistantText(): Locator {
    return this.assistantMessages.last().getByTestId("assistant-text");
  }

  async waitForReplyDone(timeout = 30_000) {
    await expect(this.stop).toBeHidden({ timeout });
    await expect(this.send).toBeVisible();
  }

  threadId(): string {
    const match = /\/chat\/([0-9a-f-]{36})/.exec(this.page.url());
    if (!match?.[1]) throw new Error(`not on a thread page: ${this.page.url()}`);
    return match[1];
  }
}
