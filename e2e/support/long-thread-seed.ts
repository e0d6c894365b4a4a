// The thread the @long-thread server is seeded with before it starts (e2e/serve.mjs --seed):
// its owner's credentials and ids, written to the server's data folder as seed.json.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

export interface Seed {
  email: string;
  password: string;
  threadId: string;
  messages: number;
  sessions: number;
}

export function seedFor(baseURL: string | undefined): Seed {
  const port = new URL(baseURL ?? "http://127.0.0.1").port;
  return JSON.parse(
    readFileSync(path.resolve(".data", `e2e-${port}`, "seed.json"), "utf8"),
  ) as Seed;
}

/** Signs in as the seeded thread's owner. */
export async function signIn(page: Page, seed: Seed) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(seed.email);
  await page.getByLabel("Password").fill(seed.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(seed.email)).toBeVisible();
}
