import { describe, expect, it } from "vitest";
import { isMcpAllowed, MCP_ALLOW_PATTERN, mcpToolNames, parseMcpAllow } from "./mcp-tool-names";

describe("allow-list entries", () => {
  it("parses mcp:<slug>/<tool> and mcp:<slug>/*", () => {
    expect(parseMcpAllow("mcp:github/create_issue")).toEqual({
      slug: "github",
      tool: "create_issue",
    });
    expect(parseMcpAllow("mcp:github/*")).toEqual({ slug: "github", tool: "*" });
  });

  it.each([
    "mcp:GitHub/x",
    "mcp:github",
    "mcp:github/",
    "mcp:/x",
    "mcp:github/a b",
    "mcp:github/a/b",
    "mcp:github/**",
    "mcp:-gh/x",
    "github/x",
  ])("refuses %s", (entry) => {
    expect(MCP_ALLOW_PATTERN.test(entry)).toBe(false);
  });

  it("a wildcard allows every tool of its server only", () => {
    const allow = ["read_file", "mcp:demo/*", "mcp:other/echo"];
    expect(isMcpAllowed(allow, "demo", "anything")).toBe(true);
    expect(isMcpAllowed(allow, "other", "echo")).toBe(true);
    expect(isMcpAllowed(allow, "other", "add")).toBe(false);
    expect(isMcpAllowed(allow, "third", "echo")).toBe(false);
  });
});

describe("mcpToolNames", () => {
  it("names tools mcp__<slug>__<tool> within the providers' charset", () => {
    expect(mcpToolNames([{ slug: "demo", tool: "echo" }])).toEqual(["mcp__demo__echo"]);
    expect(mcpToolNames([{ slug: "my-server", tool: "repo.search" }])).toEqual([
      "mcp__my-server__repo_search",
    ]);
  });

  it("cuts long names to 64 characters with a hash, and tells apart names that clean up alike", () => {
    const long = "x".repeat(100);
    const [cut] = mcpToolNames([{ slug: "demo", tool: long }]);
    expect(cut).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(cut).toHaveLength(64);
    const names = mcpToolNames([
      { slug: "demo", tool: "a.b" },
      { slug: "demo", tool: "a_b" },
      { slug: "demo", tool: `${long}1` },
      { slug: "demo", tool: `${long}2` },
    ]);
    expect(new Set(names).size).toBe(4);
    expect(names[0]).toBe("mcp__demo__a_b");
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
  });
});
