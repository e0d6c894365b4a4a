// Every handler that an app/**/route.ts exports is built by route() (lib/http/route.ts), so none
// can skip authentication, the request policy, the body limits or the error map. The list of
// routes comes from the filesystem: a route added later is checked without touching this file.
import { describe, expect, it } from "vitest";
import { HTTP_METHODS, listRouteFiles, type RouteFile } from "@/tests/support/routes";
import { scratchApp, UNWRAPPED_ROUTE, WRAPPED_ROUTE } from "@/tests/support/scratch-app";
import { ROUTE_BRAND } from "./route";

/** What the module really exports, and which of those handlers route() did not build. */
async function inspect(route: RouteFile): Promise<{ exported: string[]; unwrapped: string[] }> {
  const mod = (await import(/* @vite-ignore */ route.absolute)) as Record<string, unknown>;
  const exported = HTTP_METHODS.filter((m) => m in mod);
  const unwrapped = exported.filter((m) => {
    const handler = mod[m] as { [ROUTE_BRAND]?: unknown } | undefined;
    return typeof handler !== "function" || handler[ROUTE_BRAND] === undefined;
  });
  return { exported, unwrapped };
}

const routes = listRouteFiles();

describe("route handlers", () => {
  it("finds the app's routes on disk", () => {
    expect(routes.length).toBeGreaterThanOrEqual(18);
    expect(routes.map((r) => r.pattern)).toContain("/share/[token]/messages");
  });

  for (const route of routes) {
    it(`${route.file}: every exported method comes from route()`, async () => {
      const { exported, unwrapped } = await inspect(route);
      // The source scan the other tests use sees exactly what the module exports.
      expect(route.methods).toEqual(exported);
      expect(exported.length).toBeGreaterThan(0);
      expect(unwrapped, `handlers not built by route() in ${route.file}`).toEqual([]);
    });
  }

  it("a route added without the wrapper is caught, one added with it passes", async () => {
    const app = scratchApp({
      "app/api/added/route.ts": UNWRAPPED_ROUTE,
      "app/api/(group)/wrapped/route.ts": WRAPPED_ROUTE,
    });
    try {
      const found = listRouteFiles(app.root);
      expect(found.map((r) => [r.pattern, r.methods])).toEqual([
        ["/api/wrapped", ["POST"]],
        ["/api/added", ["POST"]],
      ]);
      const [wrapped, added] = await Promise.all(found.map(inspect));
      expect(wrapped?.unwrapped).toEqual([]);
      expect(added?.unwrapped).toEqual(["POST"]);
    } finally {
      app.remove();
    }
  });
});
