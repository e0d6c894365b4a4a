import { expect, type Page, test } from "@playwright/test";
import { seedFor, signIn } from "./support/long-thread-seed";

interface Steadiness {
  /** Largest move of a row seen in two consecutive frames, beyond the scroll between them. */
  worst: number;
  worstAt: string;
  /** How many (row, frame pair) positions were compared. */
  compared: number;
}

/**
 * Scrolls by `step` px per frame for `frames` frames, then holds still for `hold` frames, and
 * reports how far any message row in view in two consecutive frames moved beyond the scroll.
 */
function scrollAndWatch(page: Page, step: number, frames: number, hold: number) {
  return page.evaluate(
    async ({ step, frames, hold }): Promise<Steadiness> => {
      const scroller = document.querySelector<HTMLElement>('[data-testid="message-scroller"]');
      if (!scroller) throw new Error("no scroller");
      const nextFrame = () =>
        new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      const inView = () => {
        const box = scroller.getBoundingClientRect();
        const rows = new Map<string, number>();
        for (const row of scroller.querySelectorAll<HTMLElement>("[data-message-id]")) {
          const rect = row.getBoundingClientRect();
          if (rect.bottom <= box.top || rect.top >= box.bottom) continue;
          rows.set(row.dataset.messageId ?? "", rect.top);
        }
        return rows;
      };
      const result: Steadiness = { worst: 0, worstAt: "", compared: 0 };
      let before = inView();
      let topBefore = scroller.scrollTop;
      const compare = (frame: number) => {
        const now = inView();
        const scrolled = scroller.scrollTop - topBefore;
        for (const [id, y] of now) {
          const was = before.get(id);
          if (was === undefined) continue;
          result.compared++;
          const moved = Math.abs(y - was + scrolled);
          if (moved > result.worst) {
            result.worst = moved;
            result.worstAt = `${id} at frame ${frame} (scrolled ${scrolled.toFixed(0)} px)`;
          }
        }
        before = now;
        topBefore = scroller.scrollTop;
      };
      for (let i = 0; i < frames; i++) {
        scroller.scrollTop += step * scroller.clientHeight;
        await nextFrame();
        compare(i);
      }
      for (let i = 0; i < hold; i++) {
        await nextFrame();
        compare(frames + i);
      }
      return result;
    },
    { step, frames, hold },
  );
}

/** Signs in as the seed's owner and opens its thread at the newest message; counts page reads. */
async function openSeeded(page: Page, baseURL: string | undefined) {
  const seed = seedFor(baseURL);
  await signIn(page, seed);
  const pageReads: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (
      url.pathname === `/api/threads/${seed.threadId}` &&
      (url.searchParams.has("beforeSeq") || url.searchParams.has("fromSeq"))
    ) {
      pageReads.push(url.search);
    }
  });
  await page.goto(`/chat/${seed.threadId}`);
  await expect(page.getByText(`Message ${seed.messages}:`, { exact: false })).toBeInViewport();
  // The server's first HTML already shows the newest message, before the browser's list takes
  // over (its rows carry their index): scrolling before that would scroll the first HTML, and
  // the take-over mid-scroll would move the rows being watched.
  await expect(
    page.locator('[data-testid="message-scroller"] [data-index]').first(),
  ).toBeAttached();
  await expect(page.getByText(`Message ${seed.messages}:`, { exact: false })).toBeInViewport();
  expect(pageReads).toEqual([]);
  return pageReads;
}

test.describe("@long-thread scrolling a 10,000-message thread fast", () => {
  test("loads pages on the way; going down, no row in view moves beyond the scroll", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const pageReads = await openSeeded(page, baseURL);
    // Up one viewport per frame, far past the newest page, then still while pages arrive.
    await scrollAndWatch(page, -1, 150, 120);
    expect(pageReads.length).toBeGreaterThan(0);
    // Down again through what loaded and what did not.
    const down = await scrollAndWatch(page, 1, 80, 120);
    console.log(JSON.stringify({ reads: pageReads.length, down }));
    expect(down.compared).toBeGreaterThan(0);
    expect(down.worst, down.worstAt).toBeLessThanOrEqual(2);
    expect(await page.getByTestId("message").count()).toBeLessThan(100);
  });

  test("going up through pages that land above, no row in view moves beyond the scroll", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const pageReads = await openSeeded(page, baseURL);
    const up = await scrollAndWatch(page, -1, 150, 120);
    const readsAfter = pageReads.length;
    expect(readsAfter).toBeGreaterThan(0);
    // Into the middle of the thread, not loaded yet, then a slower scroll up from there, where
    // rows stay in view across frames and pages land around them.
    await page.getByTestId("message-scroller").evaluate((el) => {
      el.scrollTop = el.scrollHeight * 0.4;
    });
    const slow = await scrollAndWatch(page, -0.25, 200, 120);
    expect(pageReads.length).toBeGreaterThan(readsAfter);
    console.log(JSON.stringify({ reads: pageReads.length, up, slow }));
    for (const run of [up, slow]) {
      expect(run.compared).toBeGreaterThan(0);
      expect(run.worst, run.worstAt).toBeLessThanOrEqual(2);
    }
  });
});
