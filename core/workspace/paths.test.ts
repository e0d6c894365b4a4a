import { describe, expect, it } from "vitest";
import { MAX_PATH_CHARS } from "./limits";
import { isToolResultPath, normalizePath, normalizePrefix, writablePath } from "./paths";

const pathOf = (raw: string) => {
  const r = normalizePath(raw);
  return r.ok ? r.path : `error: ${r.error}`;
};

describe("normalizePath", () => {
  it("normalizes dot segments and duplicate slashes", () => {
    expect(pathOf("a/./b")).toBe("a/b");
    expect(pathOf("a//b///c.md")).toBe("a/b/c.md");
    expect(pathOf("./notes.md")).toBe("notes.md");
    expect(pathOf("work/p1.md")).toBe("work/p1.md");
  });

  it.each([
    ["../etc/passwd", '".." '],
    ["a/../../b", '".."'],
    ["a/..", '".."'],
    ["/etc/passwd", "absolute"],
    ["a\\b.md", "backslash"],
    ["a\u0000b", "control character"],
    ["a\nb", "control character"],
    ["", "empty"],
    ["notes/", "folder"],
    [".", "folder"],
  ])("rejects %j", (raw, message) => {
    const r = normalizePath(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(message.trim());
  });

  it("allows paths up to the character limit, counted after normalization", () => {
    const name = "a".repeat(MAX_PATH_CHARS);
    expect(pathOf(name)).toBe(name);
    expect(pathOf(`./${name}`)).toBe(name);
    expect(pathOf(`${name}b`)).toContain(`at most ${MAX_PATH_CHARS}`);
  });

  it("keeps non-ASCII names (the limit is in characters)", () => {
    expect(pathOf("notes/résumé ü.md")).toBe("notes/résumé ü.md");
  });
});

describe("writablePath", () => {
  it("reserves .baton/ for tool results", () => {
    expect(writablePath(".baton/results/x.txt")).toMatchObject({ ok: false });
    expect(writablePath("./.baton//x")).toMatchObject({ ok: false });
    expect(writablePath(".baton")).toMatchObject({ ok: false });
    expect(writablePath(".batonish/x")).toEqual({ ok: true, path: ".batonish/x" });
    expect(isToolResultPath(".baton/results/call_1.txt")).toBe(true);
    expect(isToolResultPath("results/call_1.txt")).toBe(false);
  });
});

describe("normalizePrefix", () => {
  it("treats an empty prefix as everything and keeps a trailing slash", () => {
    expect(normalizePrefix(undefined)).toEqual({ ok: true, path: "" });
    expect(normalizePrefix("./")).toEqual({ ok: true, path: "" });
    expect(normalizePrefix("work/")).toEqual({ ok: true, path: "work/" });
    expect(normalizePrefix("./work//sub")).toEqual({ ok: true, path: "work/sub" });
    expect(normalizePrefix("../x")).toMatchObject({ ok: false });
  });
});
