// Every handler that an app/**/route.ts exports is built by route() (lib/http/route.ts), so none
// can skip authentication, the request policy, the body limits or the error map. The list of
// routes comes from the filesystem: a route added later is checked without touching this file.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HTTP_METHODS, listRouteFiles, PROJECT_ROOT } from "@/tests/support/routes";
import { ROUTE_BRAND } from "./route";

const routes = listRouteFiles();

describe("route handlers", () => {
  it("finds the app's routes on disk", () => {
    expect(routes.length).toBeGreaterThanOrEqual(18);
    expect(routes.map((r) => r.pattern)).toContain("/share/[token]/messages");
  });

  for (const route of routes) {
    it(`${route.file}: every exported method comes from route()`, async () => {
      const mod = (await import(/* @vite-ignore */ path.join(PROJECT_ROOT, route.file))) as Record<
        string,
        unknown
      >;
      const exported = HTTP_METHODS.filter((m) => m in mod);
      // The source scan the other tests use sees exactly what the module exports.
      expect(route.methods).toEqual(exported);
      expect(exported.length).toBeGreaterThan(0);
      const unwrapped = exported.filter((m) => {
        const handler = mod[m] as { [ROUTE_BRAND]?: unknown } | undefined;
        return typeof handler !== "function" || handler[ROUTE_BRAND] === undefined;
      });
      expect(unwrapped, `handlers not built by route() in ${route.file}`).toEqual([]);
    });
  }
});
