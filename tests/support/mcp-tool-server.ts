// A real MCP tool server for tests: the official SDK's Server over its Streamable HTTP transport
// on node:http (port 0), stateless, one SDK server per request. Its tools: `echo`, `add`,
// `fail` (answers isError), `image` (a PNG), `big` (a long text), `slow` (answers after `ms`).
// It lists its tools a page at a time, may require a bearer token, may redirect every request,
// records the Authorization headers it saw, and can be stopped.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";

export const PNG_BYTES = 1234;

const TOOLS: Tool[] = [
  {
    name: "echo",
    description: "Echoes the text back.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
  {
    name: "add",
    description: "Adds two numbers.",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
  },
  { name: "fail", description: "Always fails.", inputSchema: { type: "object" } },
  { name: "image", description: "Returns a small PNG.", inputSchema: { type: "object" } },
  {
    name: "big",
    description: "Returns `lines` lines of text.",
    inputSchema: { type: "object", properties: { lines: { type: "number" } } },
  },
  {
    name: "slow",
    description: "Answers after `ms` milliseconds.",
    inputSchema: { type: "object", properties: { ms: { type: "number" } } },
  },
];

export interface ToolServerOptions {
  /** Tools per tools/list page (default 2, so a client must follow nextCursor). */
  pageSize?: number;
  /** When set, requests without `Authorization: Bearer <token>` are answered 401. */
  token?: string;
  /** When set, every request is answered 307 to this URL. */
  redirectTo?: string;
  /** Extra tools (listed after the built-in ones; called, they echo their arguments). */
  extraTools?: Tool[];
}

export interface TestToolServer {
  url: string;
  port: number;
  /** Authorization header values received, in order. */
  authorizations: (string | undefined)[];
  /** tools/call requests received, by tool name. */
  calls: { name: string; args: unknown }[];
  stop(): Promise<void>;
}

function text(value: string): CallToolResult {
  return { content: [{ type: "text", text: value }] };
}

async function callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  switch (name) {
    case "echo":
      return text(String(args.text ?? ""));
    case "add":
      return text(String(Number(args.a) + Number(args.b)));
    case "fail":
      return { isError: true, content: [{ type: "text", text: "the widget is broken" }] };
    case "image":
      return {
        content: [
          { type: "text", text: "here is the picture" },
          {
            type: "image",
            mimeType: "image/png",
            data: Buffer.alloc(PNG_BYTES).toString("base64"),
          },
        ],
      };
    case "big": {
      const lines = Number(args.lines ?? 2000);
      return text(
        Array.from({ length: lines }, (_, i) => `line ${i + 1} of the report`).join("\n"),
      );
    }
    case "slow":
      await new Promise((resolve) => setTimeout(resolve, Number(args.ms ?? 1000)));
      return text("finally");
    default:
      return text(JSON.stringify(args));
  }
}

function sdkServer(options: ToolServerOptions, calls: TestToolServer["calls"]): Server {
  const server = new Server(
    { name: "test-tools", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  const tools = [...TOOLS, ...(options.extraTools ?? [])];
  const pageSize = options.pageSize ?? 2;
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const end = start + pageSize;
    return {
      tools: tools.slice(start, end),
      ...(end < tools.length ? { nextCursor: String(end) } : {}),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    calls.push({ name: request.params.name, args });
    return callTool(request.params.name, args);
  });
  return server;
}

export async function startToolServer(options: ToolServerOptions = {}): Promise<TestToolServer> {
  const authorizations: TestToolServer["authorizations"] = [];
  const calls: TestToolServer["calls"] = [];
  const httpServer = http.createServer(async (req, res) => {
    authorizations.push(req.headers.authorization);
    if (options.redirectTo) {
      res.writeHead(307, { location: options.redirectTo }).end();
      return;
    }
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    const server = sdkServer(options, calls);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    authorizations,
    calls,
    stop: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
}
