import type { Locator, Page } from "@playwright/test";
import { SessionPage } from "./session-page";

/** The chat view with a drafted handoff waiting for the user's review. */
export class ReviewPage extends SessionPage {
  readonly editor: Locator;
  readonly keepSession: Locator;

  constructor(page: Page) {
    super(page);
    this.editor = this.draftEditor;
    this.keepSession = this.editor.getByRole("button", { name: "Keep this session" });
  }

  field(label: string): Locator {
    return this.editor.getByLabel(label, { exact: true });
  }

  /** The editor's list of this name (its heading), e.g. "Completed work". */
  list(label: string): Locator {
    return this.editor.getByRole("region", { name: label, exact: true });
  }

  remove(item: string, list: string): Locator {
    return this.editor.getByRole("button", { name: `Remove “${item}” from ${list}` });
  }

  pin(item: string): Locator {
    return this.editor.getByRole("button", { name: `Pin “${item}”`, exact: true });
  }

  unpin(item: string): Locator {
    return this.editor.getByRole("button", { name: `Unpin “${item}”`, exact: true });
  }

  async add(list: string, text: string) {
    await this.editor.getByRole("textbox", { name: `New item for ${list}` }).fill(text);
    await this.editor.getByRole("button", { name: `Add to ${list}` }).click();
  }
}
