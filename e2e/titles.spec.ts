// A thread's generated title against the user's own: on the reset server the offline model takes
// its background-write delay (2.5 s) to write a title, so a rename lands while it is being written.
import { expect, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

test.describe("@reset-server titles", () => {
  test("a rename made while the title is being written is kept; left alone, the title is written", async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const nav = page.getByRole("navigation", { name: "Threads" });

    await chat.openNew();
    await chat.sendMessage("Could you outline the lighthouse restoration budget for the council?");
    const link = nav.getByRole("link").first();
    await expect(link).toBeVisible();
    const placeholder = (await link.textContent())?.trim() ?? "";
    // Renamed before the model has answered with its title.
    await page.getByRole("button", { name: `Rename ${placeholder}` }).click();
    const field = page.getByRole("textbox", { name: "Conversation title" });
    await field.fill("My lighthouse notes");
    await field.press("Enter");
    await expect(nav.getByRole("link", { name: "My lighthouse notes" })).toBeVisible();
    await chat.waitForReplyDone();
    const renamedUrl = page.url();

    // A second thread, left alone, gets its generated title once the delay has passed.
    await page.getByRole("link", { name: "New chat" }).click();
    await expect(page).toHaveURL(/\/$/);
    await chat.sendMessage("Could you outline the harbour dredging schedule for the council?");
    await chat.waitForReplyDone();
    await expect(async () => {
      await page.reload();
      await expect(nav.getByRole("link", { name: /harbour dredging schedule/i })).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 20_000 });

    // By now the first thread's title write has long finished: the rename stands.
    await page.goto(renamedUrl);
    await expect(nav.getByRole("link", { name: "My lighthouse notes" })).toBeVisible();
    await expect(nav.getByRole("link", { name: /lighthouse restoration budget/i })).toHaveCount(0);
  });
});
