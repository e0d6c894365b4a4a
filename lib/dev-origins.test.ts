// `next dev` refuses its own resources (/_next/*, the /_next/hmr socket the page hydrates
// through) to a page whose origin it does not trust; the README promises that localhost and
// 127.0.0.1 both work. Asked through Next's own check, with the allowlist next.config.ts gives it.
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { blockCrossSiteDEV } from "next/dist/server/lib/router-utils/block-cross-site-dev";
import { afterEach, describe, expect, it, vi } from "vitest";

async function loadConfig() {
  vi.resetModules();
  return (await import("../next.config")).default;
}

/** Whether `next dev` (bound to no particular host name) refuses a request from `origin`. */
function blocked(allowed: string[] | undefined, origin: string, url = "/_next/hmr?id=x"): boolean {
  const request = new IncomingMessage(new Socket());
  request.url = url;
  request.headers = { origin, "sec-fetch-mode": "websocket", "sec-fetch-site": "same-site" };
  const response = new ServerResponse(request);
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    return blockCrossSiteDEV(request, response, allowed, undefined);
  } finally {
    warn.mockRestore();
    log.mockRestore();
  }
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the dev server's trusted origins", () => {
  it("serves the hot-reload socket and scripts to pages on 127.0.0.1 and localhost", async () => {
    const config = await loadConfig();
    for (const origin of ["http://127.0.0.1:3000", "http://localhost:3000", "http://127.0.0.1"]) {
      expect(blocked(config.allowedDevOrigins, origin), origin).toBe(false);
      expect(blocked(config.allowedDevOrigins, origin, "/_next/static/chunks/x.js"), origin).toBe(
        false,
      );
    }
  });

  it("still refuses another site", async () => {
    const config = await loadConfig();
    expect(blocked(config.allowedDevOrigins, "http://evil.example:3000")).toBe(true);
    expect(blocked(config.allowedDevOrigins, "http://127.0.0.2:3000")).toBe(true);
    // Without the setting, Next refuses 127.0.0.1: the failure this allowlist mends.
    expect(blocked(undefined, "http://127.0.0.1:3000")).toBe(true);
  });

  it("trusts the host names of BATON_ALLOWED_HOSTS too, whatever their port", async () => {
    vi.stubEnv("BATON_ALLOWED_HOSTS", "baton.lan:3000, box.internal");
    const config = await loadConfig();
    expect(blocked(config.allowedDevOrigins, "http://baton.lan:3000")).toBe(false);
    expect(blocked(config.allowedDevOrigins, "http://box.internal:8080")).toBe(false);
    expect(blocked(config.allowedDevOrigins, "http://other.lan:3000")).toBe(true);
  });
});
