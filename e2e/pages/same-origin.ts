// Playwright's request fixtures send neither Origin nor Sec-Fetch-Site, so a state-changing call
// made through them looks forged to the app's request policy. Calls that stand in for the app's
// own pages say where they come from.
import type { Page } from "@playwright/test";

export function sameOrigin(page: Page): Record<string, string> {
  return { origin: new URL(page.url()).origin };
}
