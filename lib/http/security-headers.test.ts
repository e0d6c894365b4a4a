import { readdirSync } from "node:fs";
import path from "node:path";
import {
  unstable_doesMiddlewareMatch,
  unstable_getResponseFromNextConfig,
} from "next/experimental/testing/server";
import { describe, expect, it } from "vitest";
import { config as proxyConfig } from "@/proxy";
import {
  createNonce,
  pageContentSecurityPolicy,
  STATIC_CONTENT_SECURITY_POLICY,
  securityHeaderRules,
} from "./security-headers";

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(";").map((d) => {
      const [name = "", ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

const nextConfig = { headers: async () => securityHeaderRules() };

async function configHeaders(path: string): Promise<Headers> {
  const response = await unstable_getResponseFromNextConfig({
    url: `http://127.0.0.1${path}`,
    nextConfig,
  });
  return response.headers;
}

describe("page policy", () => {
  it("lets scripts run by this request's nonce only, never inline", () => {
    const nonce = createNonce();
    const csp = directives(pageContentSecurityPolicy({ nonce, dev: false }));
    expect(csp.get("script-src")).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
    expect(csp.get("script-src")).not.toContain("'unsafe-inline'");
    expect(csp.get("script-src")).not.toContain("'unsafe-eval'");
    expect(csp.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'none'"]);
    expect(csp.get("form-action")).toEqual(["'self'"]);
  });

  it("adds eval in development only", () => {
    const dev = directives(pageContentSecurityPolicy({ nonce: createNonce(), dev: true }));
    expect(dev.get("script-src")).toContain("'unsafe-eval'");
    expect(dev.get("script-src")).not.toContain("'unsafe-inline'");
  });

  it("uses a fresh, unguessable nonce each time", () => {
    const nonces = new Set(Array.from({ length: 100 }, createNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });

  it("refuses a nonce that could break out of the header", () => {
    expect(() => pageContentSecurityPolicy({ nonce: "x'; script-src *", dev: false })).toThrow();
  });

  it("has no scripts at all outside pages", () => {
    const csp = directives(STATIC_CONTENT_SECURITY_POLICY);
    expect(csp.get("script-src")).toEqual(["'none'"]);
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  });
});

/** A sample URL segment for a folder of app/: null for a route group, which is not in the URL. */
function sampleSegment(folder: string): string | null {
  if (/^\(.*\)$/.test(folder)) return null;
  if (/^\[\[?\.\.\./.test(folder)) return "a/b.md";
  if (/^\[.+\]$/.test(folder)) return "x1";
  return folder;
}

/**
 * A concrete URL for every `page.tsx` or `route.ts` under app/, read from the filesystem so a page
 * or route added later is checked too (`_private` folders are never routed).
 */
function appUrls(fileName: "page.tsx" | "route.ts"): string[] {
  const urls: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isFile() && entry.name === fileName) urls.push(`/${segments.join("/")}`);
      if (!entry.isDirectory() || entry.name.startsWith("_")) continue;
      const segment = sampleSegment(entry.name);
      walk(path.join(dir, entry.name), segment === null ? segments : [...segments, segment]);
    }
  };
  walk(path.resolve(import.meta.dirname, "../../app"), []);
  return urls.sort();
}

// Which layer sets the CSP of a path: proxy.ts (pages) or next.config.ts (everything else).
const PAGES = [...appUrls("page.tsx"), "/no-such-page", "/apiary", "/sharex/abc/messages"];
const NON_PAGES = [
  ...appUrls("route.ts"),
  "/api",
  "/api/no-such-route",
  "/share/abc/messages/",
  "/share/abc/no-such-route",
];

it("finds the app's pages and routes on disk", () => {
  expect(PAGES).toEqual(expect.arrayContaining(["/", "/settings", "/chat/x1", "/share/x1"]));
  expect(NON_PAGES).toEqual(
    expect.arrayContaining(["/api/health", "/api/auth/a/b.md", "/share/x1/messages"]),
  );
});

describe("the two header layers", () => {
  it.each(PAGES)("%s: the proxy sets a nonce CSP, next.config none", async (path) => {
    expect(unstable_doesMiddlewareMatch({ config: proxyConfig, url: path })).toBe(true);
    const headers = await configHeaders(path);
    expect(headers.get("content-security-policy")).toBeNull();
    expect(headers.get("cache-control")).toBeNull();
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
  });

  it.each(NON_PAGES)("%s: no proxy; next.config sets a CSP and no-store", async (path) => {
    expect(unstable_doesMiddlewareMatch({ config: proxyConfig, url: path })).toBe(false);
    const headers = await configHeaders(path);
    expect(headers.get("content-security-policy")).toBe(STATIC_CONTENT_SECURITY_POLICY);
    expect(headers.get("cache-control")).toBe("no-store");
    expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(headers.get("permissions-policy")).toContain("clipboard-write=(self)");
  });

  it("leaves Next's static files to the static headers, cacheable", async () => {
    const path = "/_next/static/chunks/main.js";
    expect(unstable_doesMiddlewareMatch({ config: proxyConfig, url: path })).toBe(false);
    const headers = await configHeaders(path);
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("cache-control")).toBeNull();
  });
});
