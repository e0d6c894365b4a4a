// The `route` label is the App Router pattern of the route that answered, rebuilt from the
// request's path and its resolved params: never a raw path or an id.
import { describe, expect, it } from "vitest";
import { listRouteFiles } from "@/tests/support/routes";
import { routePattern } from "./route-pattern";

describe("routePattern", () => {
  it("maps static, dynamic and catch-all paths back to their pattern", () => {
    expect(routePattern("/api/health", {})).toBe("/api/health");
    expect(routePattern("/api/health", undefined)).toBe("/api/health");
    expect(routePattern("/api/threads/3f1c-9", { id: "3f1c-9" })).toBe("/api/threads/[id]");
    expect(routePattern("/api/handoffs/my%20notes/accept", { key: "my notes" })).toBe(
      "/api/handoffs/[key]/accept",
    );
    expect(
      routePattern("/api/threads/t1/files/notes/a.md", { id: "t1", path: ["notes", "a.md"] }),
    ).toBe("/api/threads/[id]/files/[...path]");
    expect(routePattern("/api/auth/sign-in/email", { all: ["sign-in", "email"] })).toBe(
      "/api/auth/[...all]",
    );
  });

  it("a param value that spells a static segment of the route still leaves no value behind", () => {
    expect(routePattern("/api/handoffs/accept/accept", { key: "accept" })).toBe(
      "/api/handoffs/accept/[key]",
    );
    expect(routePattern("/api/threads/files/files/a", { id: "files", path: ["a"] })).toBe(
      "/api/threads/files/[id]/[...path]",
    );
  });

  it("gives every app route its own pattern back from a request filled in with sample values", () => {
    for (const route of listRouteFiles()) {
      const params: Record<string, string | string[]> = {};
      const parts = route.segments.map((segment, index) => {
        if (segment.kind === "static") return segment.value;
        const sample = segment.kind === "dynamic" ? `v${index}` : [`x${index}`, "y.md"];
        params[segment.name] = sample;
        return Array.isArray(sample) ? sample.join("/") : sample;
      });
      expect(routePattern(`/${parts.join("/")}`, params), route.file).toBe(route.pattern);
    }
  });
});
