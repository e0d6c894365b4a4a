// Security headers on every kind of response, a framed /settings that does not render, and
// images in messages that the browser never fetches (chat and the cookieless share page).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type APIResponse, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { SessionPage } from "./pages/session-page";

/** A server on another port of the same host (same site, other origin), counting hits per path. */
async function otherOrigin(body: (path: string) => string | null) {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const html = body(path);
    if (html === null) {
      // A 1×1 transparent GIF: what a tracking beacon answers.
      res.writeHead(200, { "content-type": "image/gif" });
      res.end(Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64"));
      return;
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    hits: (path: string) => hits.get(path) ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function directives(policy: string | undefined): Map<string, string[]> {
  return new Map(
    (policy ?? "").split(";").map((d) => {
      const [name = "", ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

/** The headers every response carries; pages also have a script nonce, API answers no-store. */
function expectSecurityHeaders(response: APIResponse, kind: "page" | "api") {
  const h = response.headers();
  const where = `${response.url()} (${response.status()})`;
  expect(h["x-content-type-options"], where).toBe("nosniff");
  expect(h["referrer-policy"], where).toBe("strict-origin-when-cross-origin");
  expect(h["x-frame-options"], where).toBe("DENY");
  const permissions = (h["permissions-policy"] ?? "").split(/,\s*/);
  for (const feature of ["camera=()", "microphone=()", "geolocation=()", "clipboard-write=(self)"])
    expect(permissions, where).toContain(feature);
  const csp = directives(h["content-security-policy"]);
  expect(csp.get("img-src"), where).toEqual(["'self'", "data:", "blob:"]);
  expect(csp.get("frame-ancestors"), where).toEqual(["'none'"]);
  expect(csp.get("object-src"), where).toEqual(["'none'"]);
  expect(csp.get("base-uri"), where).toEqual(["'none'"]);
  expect(csp.get("form-action"), where).toEqual(["'self'"]);
  const scripts = csp.get("script-src") ?? [];
  expect(scripts, where).not.toContain("'unsafe-inline'");
  expect(scripts, where).not.toContain("'unsafe-eval'");
  if (kind === "page") {
    expect(
      scripts.filter((s) => /^'nonce-[A-Za-z0-9+/=_-]{16,}'$/.test(s)),
      where,
    ).toHaveLength(1);
    expect(scripts, where).toContain("'strict-dynamic'");
  } else {
    expect(scripts, where).toEqual(["'none'"]);
    expect(h["cache-control"] ?? "", where).toContain("no-store");
  }
  return scripts.find((s) => s.startsWith("'nonce-"));
}

/** Records CSP violations and CSP console errors from the moment a page opens. */
async function watchCsp(context: BrowserContext) {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
}

function cspConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text()))
      errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

async function violations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

test("headers, a framed /settings, and images in messages that never load", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const images = await otherOrigin(() => null);
  const framer = await otherOrigin(
    (path) => `<!doctype html><title>framer</title><iframe src="${baseURL}${path}"></iframe>`,
  );
  try {
    await watchCsp(context);
    const chatErrors = cspConsoleErrors(page);

    // A message with a markdown image, a raw <img> and a <picture> whose <source> has its own
    // URL; the offline model's reply repeats the message (as markdown), the user's bubble shows it.
    const u = (name: string) => `${images.origin}/${name}.gif`;
    const chat = new SessionPage(page);
    await chat.openNew();
    await chat.sendMessage(
      `![md beacon](${u("md")}) <img src="${u("raw")}" alt="raw beacon"> ` +
        `<picture><source srcset="${u("srcset")}"><img src="${u("picture")}" alt="pic beacon"></picture>`,
    );
    await chat.waitForReplyDone();
    const reply = chat.assistantMessages.last();
    await expect(reply).toContainText("You said:");
    const shown = { "md beacon": "md", "raw beacon": "raw", "pic beacon": "picture" };
    for (const [name, path] of Object.entries(shown)) {
      const link = reply.getByRole("link", { name: new RegExp(`^Image: ${name}`) });
      await expect(link).toHaveAttribute("href", u(path));
    }
    await expect(reply.locator("img, source")).toHaveCount(0);
    await expect(chat.userMessages.last()).toContainText("md beacon");
    const threadId = chat.threadId();

    // Reload: the stored messages render from the server too.
    await page.reload();
    await expect(
      chat.assistantMessages.last().getByRole("link", { name: /md beacon/ }),
    ).toBeVisible();
    expect(chatErrors).toEqual([]);
    expect(await violations(page)).toEqual([]);

    await chat.createShareLink();
    const shareUrl = await page.getByRole("textbox", { name: "Share link" }).inputValue();
    expect(shareUrl).toMatch(/\/share\/[A-Za-z0-9_-]+$/);
    const shareToken = shareUrl.split("/").at(-1) ?? "";

    // The share page, in a cookieless context: links, no image requests, no CSP errors.
    const visitor = await browser.newContext();
    try {
      await watchCsp(visitor);
      const shared = await visitor.newPage();
      const shareErrors = cspConsoleErrors(shared);
      await shared.goto(shareUrl);
      const sharedReply = shared.locator('[data-testid="message"][data-role="assistant"]').last();
      for (const name of [/Image: md beacon/, /Image: raw beacon/, /Image: pic beacon/])
        await expect(sharedReply.getByRole("link", { name })).toBeVisible();
      await expect(sharedReply.locator("img, source")).toHaveCount(0);
      expect(shareErrors).toEqual([]);
      expect(await violations(shared)).toEqual([]);
    } finally {
      await visitor.close();
    }

    // The counter counts: a direct request is seen; the browser never asked for the images.
    expect((await page.request.get(`${images.origin}/control.gif`)).status()).toBe(200);
    expect(images.hits("/control.gif")).toBe(1);
    for (const path of ["/md.gif", "/raw.gif", "/srcset.gif", "/picture.gif"])
      expect(images.hits(path), path).toBe(0);

    // Settings renders at the top level, with no CSP errors...
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
    expect(chatErrors).toEqual([]);
    expect(await violations(page)).toEqual([]);

    // ...but not inside a frame on another port of the same host (the cookie would be sent).
    const framing = await context.newPage();
    const blocked = framing.waitForEvent("console", {
      predicate: (m) => /frame-ancestors|X-Frame-Options/i.test(m.text()),
      timeout: 15_000,
    });
    await framing.goto(`${framer.origin}/settings`);
    expect((await blocked).text()).toMatch(/frame-ancestors 'none'|X-Frame-Options/);
    const frame = framing.frameLocator("iframe");
    await expect(frame.getByRole("heading", { name: "Settings" })).toHaveCount(0);
    await expect(frame.getByText("API tokens")).toHaveCount(0);
    await framing.close();

    // Headers on pages, API answers (with the user's cookie), 404s and static files.
    const request = page.request;
    const pages = ["/", `/chat/${threadId}`, "/settings", `/share/${shareToken}`, "/sign-in"];
    const nonces = new Set<string | undefined>();
    for (const path of pages) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      nonces.add(expectSecurityHeaders(response, "page"));
    }
    const missingPage = await request.get("/no-such-page");
    expect(missingPage.status()).toBe(404);
    nonces.add(expectSecurityHeaders(missingPage, "page"));
    // A fresh nonce per response: the two requests of one page differ, too.
    nonces.add(expectSecurityHeaders(await request.get("/settings"), "page"));
    expect(nonces.size).toBe(pages.length + 2);

    const api = [
      "/api/health",
      "/api/threads",
      `/api/threads/${threadId}`,
      `/share/${shareToken}/messages`,
      "/api/auth/get-session",
    ];
    for (const path of api) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      expectSecurityHeaders(response, "api");
    }
    const missingApi = await request.get("/api/no-such-route");
    expect(missingApi.status()).toBe(404);
    expectSecurityHeaders(missingApi, "api");

    const html = await (await request.get("/settings")).text();
    const script = /<script src="(\/_next\/static\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await request.get(script ?? "");
    expect(asset.status()).toBe(200);
    expect(asset.headers()["x-content-type-options"]).toBe("nosniff");
    expect(asset.headers()["x-frame-options"]).toBe("DENY");
  } finally {
    await images.close();
    await framer.close();
  }
});
