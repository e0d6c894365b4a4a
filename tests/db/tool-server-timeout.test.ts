// A tool call that gets no answer in time is a tool error naming the server and the limit, and
// the run's next call to that server connects afresh and is answered. The real limit is
// CALL_TIMEOUT_MS (30 s); the test sets a short one through the same option.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolServer } from "@/db/schema";
import { ToolServerError } from "@/lib/connections/errors";
import { McpConnections } from "@/lib/connections/run-connections";
import { startToolServer, type TestToolServer } from "../support/mcp-tool-server";

let tools: TestToolServer;
beforeAll(async () => {
  tools = await startToolServer();
});
afterAll(async () => {
  await tools.stop();
});

function serverRow(url: string): ToolServer {
  const now = new Date();
  return {
    id: randomUUID(),
    userId: "nobody",
    slug: "slowpoke",
    url,
    tokenSealed: null,
    tokenState: "none",
    tools: [],
    readOnlyTools: [],
    toolsFetchedAt: null,
    lastError: null,
    createdAt: now,
    updatedAt: now,
  };
}

const textOf = (result: { content: unknown }) =>
  (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");

describe("a tool call past its time limit", () => {
  it("is a ToolServerError naming the limit, and the next call is answered", async () => {
    const connections = new McpConnections({ allowedHosts: ["127.0.0.1"], callTimeoutMs: 300 });
    const server = serverRow(tools.url);
    try {
      // Far past the test's own timeout: had the call waited for this answer, the test failed.
      const late = connections.call(server, { tool: "slow", args: { ms: 60_000 } });
      await expect(late).rejects.toBeInstanceOf(ToolServerError);
      await expect(late).rejects.toThrow("did not answer within 0.3 s");
      const echoed = await connections.call(server, { tool: "echo", args: { text: "still here" } });
      expect(textOf(echoed)).toContain("still here");
    } finally {
      await connections.close();
    }
  });
});
