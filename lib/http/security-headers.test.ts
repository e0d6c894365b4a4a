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

// Which layer sets the CSP of a path: proxy.ts (pages) or next.config.ts (everything else).
const PAGES = [
  "/",
  "/settings",
  "/chat/0b6f0c5e-8a0e-4c59-9d67-5b7f6a1c2d3e",
  "/share/abc",
  "/sign-in",
  "/no-such-page",
  "/apiary",
  "/share/abc/messagesx",
  "/share/abc/filesx",
];
const NON_PAGES = [
  "/api",
  "/api/health",
  "/api/threads",
  "/api/auth/sign-in/email",
  "/api/no-such-route",
  "/share/abc/messages",
  "/share/abc/messages/",
  "/share/abc/files",
  "/share/abc/files/work/p1.md",
  "/share/abc/plan",
];

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
