// Where people touch Baton first: a phone-sized screen, themes, the offline notice, copying a
// reply, Escape, titles, sidebar search and the small things a checklist of first-use complaints
// names (skip link, favicon, a steady meter, toasts, the sidebar during the first reply, Send's
// contrast, a quoted code fence).
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

/**
 * The visible interactive controls whose box leaves the viewport: across for a whole page (a long
 * page scrolls down, never sideways), across and down for a panel.
 */
async function controlsOutsideViewport(page: Page, scope?: Locator) {
  const vertical = scope !== undefined;
  return (scope ?? page.locator("body")).evaluate((root, vertical) => {
    const width = window.innerWidth;
    const height = window.innerHeight;
    const controls = root.querySelectorAll<HTMLElement>(
      "button, a[href], input, select, textarea, [role='button'], [tabindex='0']",
    );
    const outside: string[] = [];
    for (const el of controls) {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // A visually hidden control (the skip link until focused) is 1 × 1 px and clipped.
      const shown =
        box.width > 1 && box.height > 1 && style.visibility !== "hidden" && !el.closest("[hidden]");
      // Rows of a scrolled list may sit below the fold; only what is laid out across is judged.
      if (!shown || el.closest("[data-testid='message-scroller'], nav[aria-label='Threads']"))
        continue;
      const across = box.left < -0.5 || box.right > width + 0.5;
      const down = vertical && (box.top < -0.5 || box.bottom > height + 0.5);
      if (across || down)
        outside.push(
          `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}" ${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
    }
    return outside;
  }, vertical);
}

/**
 * Pairs of visible controls in the page's top `band` px whose boxes overlap (the menu button
 * over the Model label, say): the header and what floats over it.
 */
async function overlappingControls(page: Page, band: number) {
  return page.evaluate((band) => {
    const controls = [
      ...document.querySelectorAll<HTMLElement>("button, a[href], input, select, textarea, label"),
    ].filter((el) => {
      const box = el.getBoundingClientRect();
      return (
        box.width > 1 &&
        box.height > 1 &&
        box.top < band &&
        getComputedStyle(el).visibility !== "hidden"
      );
    });
    const name = (el: HTMLElement) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}"`;
    const pairs: string[] = [];
    for (const [i, a] of controls.entries()) {
      for (const b of controls.slice(i + 1)) {
        if (a.contains(b) || b.contains(a)) continue;
        const p = a.getBoundingClientRect();
        const q = b.getBoundingClientRect();
        const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
        const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
        if (x > 1 && y > 1) pairs.push(`${name(a)} × ${name(b)}`);
      }
    }
    return pairs;
  }, band);
}

const luminance = (rgb: number[]) => {
  const [r = 0, g = 0, b = 0] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const rgbOf = (css: string) => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

async function setTheme(page: Page, theme: "Light" | "Dark") {
  const toggle = page.getByRole("button", { name: "Toggle sidebar" });
  const drawer = (await toggle.isVisible()) ? toggle : null;
  if (drawer) await drawer.click();
  await page.getByText(theme, { exact: true }).click();
  if (drawer) await page.keyboard.press("Escape");
}

test.describe("at 390 × 844", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("chat, settings and share pages keep every control on screen; the notice stays dismissed; axe passes in both themes", async ({
    page,
    browser,
  }) => {
    const chat = new ChatPage(page);
    await chat.openNew();
    await chat.sendMessage("Plan the harbour ferry timetable for the spring sailings");
    await chat.waitForReplyDone();
    expect(await controlsOutsideViewport(page)).toEqual([]);
    // The header's controls sit side by side: the menu button covers neither Model nor its label.
    await expect(page.getByRole("button", { name: "Toggle sidebar" })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Model" })).toBeVisible();
    const header = await page.locator("header").first().boundingBox();
    expect(await overlappingControls(page, (header?.y ?? 0) + (header?.height ?? 0))).toEqual([]);
    // The composer's placeholder fits its box, and the chrome above the messages (header and
    // the offline notice) leaves them at least three quarters of the screen.
    const placeholderClipped = await chat.composer.evaluate((el) => {
      const field = el as HTMLTextAreaElement;
      const style = getComputedStyle(field);
      const ctx = document.createElement("canvas").getContext("2d");
      if (!ctx) return true;
      ctx.font = `${style.fontSize} ${style.fontFamily}`;
      const room =
        field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return ctx.measureText(field.placeholder).width > room;
    });
    expect(placeholderClipped).toBe(false);
    const messagesTop = (await page.getByTestId("message-scroller").boundingBox())?.y ?? 844;
    expect(messagesTop).toBeLessThan(844 / 4);

    await page.getByRole("button", { name: "Share", exact: true }).click();
    const panel = page.getByRole("region", { name: "Share this thread" });
    // Opening the panel shares nothing: no link exists until "Create link".
    await expect(panel.getByRole("button", { name: "Create link" })).toBeVisible();
    await expect(panel.getByRole("textbox", { name: "Share link" })).toHaveCount(0);
    await page.getByRole("button", { name: "Create link" }).click();
    await expect(panel.getByRole("textbox", { name: "Share link" })).toHaveValue(/\/share\//);
    expect(await controlsOutsideViewport(page, panel)).toEqual([]);
    const box = await panel.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    const shareUrl = await panel.getByRole("textbox", { name: "Share link" }).inputValue();
    await page.keyboard.press("Escape");

    // The offline notice can be dismissed, and a reload does not bring it back.
    await expect(page.getByTestId("offline-notice")).toBeVisible();
    await page.getByRole("button", { name: "Dismiss the offline model notice" }).click();
    await expect(page.getByTestId("offline-notice")).toBeHidden();
    await page.reload();
    await expect(chat.assistantMessages).toHaveCount(1);
    await expect(page.getByTestId("offline-notice")).toBeHidden();

    for (const theme of ["Light", "Dark"] as const) {
      await setTheme(page, theme);
      await expect(page.locator("html")).toHaveClass(new RegExp(theme.toLowerCase()));
      expect(await seriousViolations(page), `chat, ${theme}`).toEqual([]);
    }

    await page.goto("/settings/agents");
    await expect(page.getByRole("heading").first()).toBeVisible();
    expect(await controlsOutsideViewport(page)).toEqual([]);
    for (const theme of ["Dark", "Light"] as const) {
      await setTheme(page, theme);
      await expect(page.locator("html")).toHaveClass(new RegExp(theme.toLowerCase()));
      expect(await seriousViolations(page), `settings, ${theme}`).toEqual([]);
    }

    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const shared = await visitor.newPage();
      await shared.goto(shareUrl);
      await expect(shared.getByTestId("message").first()).toBeVisible();
      expect(await controlsOutsideViewport(shared)).toEqual([]);
      // A visitor has no toggle: the page follows the system theme, checked both ways.
      for (const colorScheme of ["light", "dark"] as const) {
        await shared.emulateMedia({ colorScheme });
        await shared.reload();
        await expect(shared.getByTestId("message").first()).toBeVisible();
        await expect(shared.locator("html")).toHaveClass(new RegExp(colorScheme));
        expect(await seriousViolations(shared), `share page, ${colorScheme}`).toEqual([]);
      }
    } finally {
      await visitor.close();
    }
  });
});

test("copy, Escape, a short title, search and a rename that keeps its place", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const chat = new ChatPage(page);
  await chat.openNew();
  const first =
    "Could you plan the harbour ferry timetable for the spring season with extra Saturday sailings?";
  await chat.sendMessage(first);
  // The sidebar lists the new thread while its first reply streams.
  const nav = page.getByRole("navigation", { name: "Threads" });
  await expect(chat.stop).toBeVisible();
  await expect(nav).not.toContainText("No conversations yet");
  await expect(nav.getByRole("link").first()).toBeVisible();
  await chat.waitForReplyDone();

  // Copy puts the reply's markdown on the clipboard.
  await page.getByRole("button", { name: "Copy the reply as markdown" }).click();
  await expect(page.getByRole("button", { name: "Copied the reply" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("You said:");
  expect(copied).toContain("harbour");

  // The title is a few words of the message, not its first line cut off.
  await expect(
    nav.getByRole("link", { name: "Plan harbour ferry timetable spring" }),
  ).toBeVisible();

  // Escape stops a streaming reply.
  await chat.sendMessage(`Tell me about ${"the long harbour walk and the lighthouse ".repeat(12)}`);
  await expect(chat.stop).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("stopped-badge")).toBeVisible();
  await chat.waitForReplyDone();

  // A second thread; renaming the older one keeps it below.
  await page.getByRole("link", { name: "New chat" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(chat.messages).toHaveCount(0);
  await chat.sendMessage("Draft the quarterly budget review for the museum board");
  await chat.waitForReplyDone();
  const links = nav.getByRole("link");
  await expect(links.first()).toHaveText(/budget/i);
  await page.getByRole("button", { name: "Rename Plan harbour ferry timetable spring" }).click();
  const field = page.getByRole("textbox", { name: "Conversation title" });
  await field.fill("Ferry plans");
  await field.press("Enter");
  await expect(links.nth(1)).toHaveText("Ferry plans");
  await page.reload();
  await expect(nav.getByRole("link").nth(1)).toHaveText("Ferry plans");

  // Search asks the server for titles with that word.
  const search = page.getByRole("searchbox", { name: "Search threads by title" });
  await search.fill("budget");
  const results = page.getByRole("list", { name: "Search results" });
  await expect(results.getByRole("link")).toHaveCount(1);
  await expect(results.getByRole("link")).toHaveText(/budget/i);
  await search.fill("no such words here");
  await expect(page.getByText("No thread titles contain")).toBeVisible();
  await search.press("Escape");
  await expect(nav.getByRole("link")).toHaveCount(2);
});

test("copy falls back where the Clipboard API is missing (plain HTTP on a LAN)", async ({
  page,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
    (window as unknown as { copied: string[] }).copied = [];
    document.addEventListener("copy", () => {
      const text = (document.activeElement as HTMLTextAreaElement | null)?.value ?? "";
      (window as unknown as { copied: string[] }).copied.push(text);
    });
  });
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.sendMessage("note the ferry leaves at nine");
  await chat.waitForReplyDone();
  await page.getByRole("button", { name: "Copy the reply as markdown" }).click();
  await expect(page.getByRole("button", { name: "Copied the reply" })).toBeVisible();
  const copied = await page.evaluate(() => (window as unknown as { copied: string[] }).copied);
  expect(copied.join("")).toContain("ferry leaves at nine");
});

test("checklist: skip link, favicon, a steady meter, toasts, Send's contrast, a quoted code fence", async ({
  page,
  request,
}) => {
  expect((await request.get("/favicon.ico")).status()).toBe(200);
  expect((await request.get("/icon.svg")).status()).toBe(200);

  const chat = new ChatPage(page);
  await chat.openNew();
  // The first Tab stop of the page is the skip link (the composer takes focus on load, so the
  // order is read off the document), and following it lands in the chat.
  const firstStop = await page.evaluate(() => {
    const stops = [
      ...document.querySelectorAll<HTMLElement>(
        "a[href], button, input, select, textarea, [tabindex]",
      ),
    ].filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled);
    return stops[0]?.textContent?.trim();
  });
  expect(firstStop).toBe("Skip to chat");
  const skip = page.getByRole("link", { name: "Skip to chat" });
  await page.keyboard.press("Shift+Tab");
  for (let i = 0; i < 40 && !(await skip.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Shift+Tab");
  }
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("#main-content")).toBeFocused();

  // A reply quoting a cut code fence renders as text after the quote.
  await chat.sendMessage(
    "```js\nconst harbour = openTheGates(everyMorning, atNine, withTheBell, andTheHorn);\n```",
  );
  await chat.waitForReplyDone();
  const reply = chat.lastAssistantText();
  await expect(reply.locator("pre")).toHaveCount(0);
  await expect(reply).toContainText("I'm the offline demo model");

  // The meter reads the same across two reloads.
  const meter = page.getByRole("meter", { name: "Context used" });
  await page.reload();
  const once = await meter.getAttribute("aria-valuetext");
  await page.reload();
  expect(await meter.getAttribute("aria-valuetext")).toBe(once);

  // Disabled Send (empty composer) keeps a 3:1 contrast in both themes.
  for (const theme of ["Light", "Dark"] as const) {
    await setTheme(page, theme);
    await expect(chat.send).toBeDisabled();
    // Read back through a canvas: computed colors may be oklch(), which the formula needs as RGB.
    const colors = await chat.send.evaluate((el) => {
      const s = getComputedStyle(el);
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 1;
      const ctx = canvas.getContext("2d", { willReadFrequently: true });
      const rgb = (color: string) => {
        if (!ctx) return color;
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = color;
        ctx.fillRect(0, 0, 1, 1);
        const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
        return `rgb(${r}, ${g}, ${b})`;
      };
      return { fg: rgb(s.color), bg: rgb(s.backgroundColor) };
    });
    expect(contrast(colors.fg, colors.bg), theme).toBeGreaterThanOrEqual(3);
  }

  // A toast stays clear of the message column.
  await page.getByRole("button", { name: "Share", exact: true }).click();
  await page.getByRole("button", { name: "Create link" }).click();
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  const toast = page.locator("[data-sonner-toast]").first();
  await expect(toast).toBeVisible();
  const [toastBox, columnBox] = await Promise.all([
    toast.boundingBox(),
    chat.assistantMessages.first().boundingBox(),
  ]);
  expect(toastBox && columnBox).toBeTruthy();
  if (toastBox && columnBox) expect(toastBox.x + toastBox.width).toBeLessThanOrEqual(columnBox.x);
});
