// An outside MCP tool server for e2e specs, built with the official SDK: McpServer behind the
// Streamable HTTP transport on node:http, stateless (a server and transport per request), on
// 127.0.0.1 at a port the OS picks. It can require a bearer token and counts the calls it ran.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface McpToolServer {
  url: string;
  /** Calls of each tool it answered, by tool name. */
  calls: Map<string, unknown[]>;
  /** Stops listening and drops open connections: later requests cannot connect. */
  stop: () => Promise<void>;
}

/** The server's one tool: it answers the word it was given, spelled backwards, with a marker. */
export const LOOKUP_TOOL = "lookup";
export const lookupAnswer = (word: string) =>
  `${word} backwards is ${[...word].reverse().join("")}`;

function toolServer(calls: Map<string, unknown[]>): McpServer {
  const server = new McpServer({ name: "e2e-tools", version: "1.0.0" });
  server.registerTool(
    LOOKUP_TOOL,
    {
      description: "Looks a word up and answers it spelled backwards.",
      inputSchema: { word: z.string() },
    },
    async ({ word }) => {
      calls.set(LOOKUP_TOOL, [...(calls.get(LOOKUP_TOOL) ?? []), { word }]);
      return { content: [{ type: "text", text: lookupAnswer(word) }] };
    },
  );
  return server;
}

export async function startMcpToolServer(options: { token?: string } = {}): Promise<McpToolServer> {
  const calls = new Map<string, unknown[]>();
  const http: Server = createServer(async (req, res) => {
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      return;
    }
    const server = toolServer(calls);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    stop: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
