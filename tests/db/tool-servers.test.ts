// MCP tool servers over /api/tool-servers with real guest sessions and a real MCP server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startToolServer, type TestToolServer } from "../support/mcp-tool-server";
import { signedInWithTools } from "../support/tool-servers";

let tools: TestToolServer;
beforeAll(async () => {
  tools = await startToolServer();
  process.env.BATON_MCP_ALLOWED_HOSTS = `127.0.0.1:${tools.port}`;
});
afterAll(async () => {
  delete process.env.BATON_MCP_ALLOWED_HOSTS;
  await tools.stop();
});

describe("tool servers", () => {
  it("adds a server and lists its tools", async () => {
    const { api } = await signedInWithTools();
    const res = await api.create({ slug: "demo", url: tools.url });
    expect(res.status, res.text).toBe(201);
    expect(res.body.server.lastError).toBeNull();
    expect(res.body.server.tools.map((t: { name: string }) => t.name)).toEqual([
      "echo",
      "add",
      "fail",
      "image",
      "big",
      "slow",
    ]);
  });
});
