// Same-site request forgery in a real browser: a page served on another port of the same host
// (same site, so the browser sends the victim's cookies) tries every state-changing route found
// under app/ with an HTML form post (enctype text/plain) and a no-cors fetch. Every request that
// reaches the app answers 403, and the victim's data is exactly as before.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import postgres from "postgres";
import { isStateChanging, type RouteCase, routeCases, type Victim } from "../tests/support/routes";
import { tableHashes } from "../tests/support/table-hash";
import { ChatPage } from "./pages/chat-page";

const PASSWORD = "correct horse battery";

async function signUp(page: Page): Promise<string> {
  await new ChatPage(page).openNew();
  const email = `forgery-victim-${randomUUID()}@example.test`;
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText(email)).toBeVisible();
  return email;
}

/** Same-origin requests from the victim's own page, as the app's UI makes them. */
async function seed(page: Page, threadId: string) {
  return page.evaluate(async (threadId) => {
    const post = async (path: string, body?: unknown) => {
      const res = await fetch(path, {
        method: "POST",
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, string>;
    };
    const share = await post(`/api/threads/${threadId}/share`);
    const handoff = await post("/api/handoffs", {
      key: "victim-notes",
      artifact: { goal: "Victim's work", state_summary: "Half done" },
    });
    const token = await post("/api/tokens", { name: "victim agent", scopes: ["read", "write"] });
    const profile = (await post("/api/profiles", {
      id: "victim-agent",
      name: "Victim's agent",
      systemPrompt: "Help.",
    })) as unknown as { profile: { id: string } };
    return {
      profileId: profile.profile.id,
      shareToken: String(share.token),
      handoffId: String(handoff.id),
      tokenId: String(token.id),
      token: String(token.token),
    };
  }, threadId);
}

/** Everything the victim can see of their data, read through the app. */
async function observe(page: Page, victim: Victim) {
  return page.evaluate(async (v) => {
    const read = async (path: string) => {
      const res = await fetch(path);
      const text = await res.text();
      return { status: res.status, body: text.startsWith("{") ? JSON.parse(text) : text };
    };
    const session = await read("/api/auth/get-session");
    return {
      session: session.body?.user
        ? { user: session.body.user, id: session.body.session?.id }
        : session,
      threads: await read("/api/threads"),
      thread: await read(`/api/threads/${v.threadId}`),
      tokens: await read("/api/tokens"),
      profiles: await read("/api/profiles"),
      profile: await read(`/api/profiles/${v.profileId}`),
      handoffs: await read("/api/handoffs"),
      handoff: await read(`/api/handoffs/${v.handoffKey}`),
      shared: await read(`/share/${v.shareToken}/messages`),
    };
  }, victim);
}

/** A text/plain form whose `name=value` line is the JSON body: the `=` lands inside a string. */
function formFields(json: string | undefined): { name: string; value: string } {
  if (json === undefined) return { name: "x", value: "y" };
  const spaced = /"[^"\\]* [^"\\]*"/.exec(json);
  if (!spaced) return { name: json, value: "" };
  const at = spaced.index + spaced[0].indexOf(" ");
  return { name: json.slice(0, at), value: json.slice(at + 1) };
}

async function startAttackerSite(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>Win a prize</title><h1>Congratulations</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function dbHashes(): Promise<Record<string, string> | null> {
  const url = process.env.DATABASE_URL;
  if (!url) return null;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await tableHashes(async (text) => [...(await sql.unsafe(text))]);
  } finally {
    await sql.end();
  }
}

test("a page on another port of the same host cannot act with the victim's cookies", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const appOrigin = new URL(baseURL ?? "").origin;
  const email = await signUp(page);
  const chat = new ChatPage(page);
  await chat.openNew();
  await chat.sendMessage("remember the launch code is blue");
  await chat.waitForReplyDone();
  const threadId = chat.threadId();
  const victim: Victim = {
    threadId,
    handoffKey: "victim-notes",
    email,
    password: PASSWORD,
    ...(await seed(page, threadId)),
  };
  const before = await observe(page, victim);
  expect(before.thread.status).toBe(200);
  expect(before.shared.status).toBe(200);
  expect(before.tokens.body.tokens).toHaveLength(1);
  expect(before.profile.status).toBe(200);
  const hashesBefore = await dbHashes();

  const { server, origin: attackerOrigin } = await startAttackerSite();
  const attacker = await context.newPage();
  const seen: { method: string; url: string; status: number }[] = [];
  attacker.on("response", (response) => {
    if (response.url().startsWith(appOrigin)) {
      seen.push({
        method: response.request().method(),
        url: response.url(),
        status: response.status(),
      });
    }
  });
  try {
    await attacker.goto(attackerOrigin);
    const cases: RouteCase[] = routeCases(victim).filter((c) => isStateChanging(c.method));
    expect(cases.length).toBeGreaterThanOrEqual(15);
    const outcomes: { request: string; how: string; status: number | "not sent" }[] = [];
    for (const [i, c] of cases.entries()) {
      const url = `${appOrigin}${c.path}`;
      const json = c.body === undefined ? undefined : JSON.stringify(c.body);
      const from = seen.length;
      if (c.method === "POST") {
        // An HTML form: no preflight, cookies attached, body `name=value` as text/plain.
        const form = formFields(json);
        const formResponse = attacker.waitForResponse(
          (r) => r.url() === url && r.request().method() === "POST",
          { timeout: 10_000 },
        );
        await attacker.evaluate(
          ({ url, form, i }) => {
            const frame = document.createElement("iframe");
            frame.name = `sink-${i}`;
            document.body.append(frame);
            const el = document.createElement("form");
            Object.assign(el, { action: url, method: "POST", target: frame.name });
            el.enctype = "text/plain";
            const input = document.createElement("input");
            Object.assign(input, { type: "hidden", name: form.name, value: form.value });
            el.append(input);
            document.body.append(el);
            el.submit();
          },
          { url, form, i },
        );
        outcomes.push({ request: c.label, how: "form", status: (await formResponse).status() });
        // A no-cors fetch: the page cannot read the answer, but the request is sent.
        const fetchResponse = attacker.waitForResponse(
          (r) => r.url() === url && r.request().method() === "POST",
          { timeout: 10_000 },
        );
        await attacker.evaluate(
          async ({ url, json }) => {
            await fetch(url, {
              method: "POST",
              mode: "no-cors",
              credentials: "include",
              headers: { "content-type": "text/plain" },
              body: json ?? "",
            }).catch(() => undefined);
          },
          { url, json },
        );
        outcomes.push({
          request: c.label,
          how: "no-cors fetch",
          status: (await fetchResponse).status(),
        });
      } else {
        // PATCH and DELETE need a CORS preflight, which the app never grants: the request itself
        // must never arrive, and if it did, it must be refused.
        await attacker.evaluate(
          async ({ url, method, json }) => {
            await fetch(url, {
              method,
              mode: "cors",
              credentials: "include",
              headers: { "content-type": "text/plain" },
              body: json,
            }).catch(() => undefined);
          },
          { url, method: c.method, json },
        );
        await attacker.waitForTimeout(200);
        const arrived = seen.slice(from).filter((s) => s.method === c.method && s.url === url);
        outcomes.push(
          ...(arrived.length === 0
            ? [{ request: c.label, how: "cors fetch", status: "not sent" as const }]
            : arrived.map((s) => ({ request: c.label, how: "cors fetch", status: s.status }))),
        );
      }
    }
    const notRefused = outcomes.filter((o) => o.status !== 403 && o.status !== "not sent");
    expect(notRefused).toEqual([]);
    // Every POST route was really tried both ways.
    const posts = cases.filter((c) => c.method === "POST").length;
    expect(outcomes.filter((o) => o.status === 403)).toHaveLength(posts * 2);
  } finally {
    await attacker.close();
    server.close();
  }

  // Not a byte changed (Postgres pass: the spec reads the server's database directly), and the
  // victim's page still shows exactly what it showed.
  const hashesAfter = await dbHashes();
  if (hashesBefore) expect(hashesAfter).toEqual(hashesBefore);
  expect(await observe(page, victim)).toEqual(before);
  await page.reload();
  const nav = page.getByRole("navigation", { name: "Threads" });
  await expect(nav.getByRole("link")).toHaveCount(1);
  await expect(nav).toContainText(before.threads.body.threads[0].title);
});
