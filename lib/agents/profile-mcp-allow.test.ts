import { describe, expect, it } from "vitest";
import {
  setBuiltinTool,
  setMcpServerAll,
  setMcpTool,
  unknownMcpEntries,
} from "./profile-mcp-allow";

const BUILTINS = ["list_files", "read_file", "write_file"];

describe("MCP allow entries", () => {
  it("all tools of a server replaces its single-tool entries; off leaves none of it", () => {
    const allow = ["read_file", "mcp:search/find", "mcp:notes/add", "mcp:search/get"];
    const all = setMcpServerAll(allow, "search", true);
    expect(all).toEqual(["read_file", "mcp:notes/add", "mcp:search/*"]);
    expect(setMcpServerAll(all, "search", false)).toEqual(["read_file", "mcp:notes/add"]);
  });

  it("one tool is added once and removed alone", () => {
    const once = setMcpTool(
      setMcpTool(["read_file"], "search", "find", true),
      "search",
      "find",
      true,
    );
    expect(once).toEqual(["read_file", "mcp:search/find"]);
    const two = setMcpTool(once, "search", "get", true);
    expect(setMcpTool(two, "search", "find", false)).toEqual(["read_file", "mcp:search/get"]);
  });

  it("a built-in tool toggled keeps the MCP entries and the built-in order", () => {
    const allow = ["write_file", "mcp:search/*"];
    expect(setBuiltinTool(allow, BUILTINS, "list_files", true)).toEqual([
      "list_files",
      "write_file",
      "mcp:search/*",
    ]);
    expect(setBuiltinTool(allow, BUILTINS, "write_file", false)).toEqual(["mcp:search/*"]);
  });

  it("names the entries no server or listed tool matches", () => {
    const servers = [{ slug: "search", tools: [{ name: "find" }] }];
    const allow = ["read_file", "mcp:search/*", "mcp:search/find", "mcp:search/gone", "mcp:old/*"];
    expect(unknownMcpEntries(allow, servers)).toEqual(["mcp:search/gone", "mcp:old/*"]);
  });
});
