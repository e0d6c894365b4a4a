// The MCP connections of one run: a server is connected on the run's first call of one of its
// tools and the connection is reused for the rest of the run; the run closes them all when it
// ends. A connection that failed is forgotten, so the next call tries again.
import "server-only";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolServer } from "@/db/schema";
import { ToolServerError } from "./errors";
import {
  CALL_TIMEOUT_MS,
  type ClientOptions,
  callRemoteTool,
  connectClient,
  LIST_TIMEOUT_MS,
} from "./mcp-client";
import { markTokenUnreadable, targetOf, UNREADABLE_TOKEN_MESSAGE } from "./server-token";

export class McpConnections {
  private readonly clients = new Map<string, Promise<Client>>();
  private closed = false;

  constructor(private readonly options: ClientOptions & { callTimeoutMs?: number } = {}) {}

  /** Calls `tool` on `server`; what keeps it from answering is a ToolServerError. */
  async call(
    server: ToolServer,
    call: { tool: string; args: Record<string, unknown>; signal?: AbortSignal },
  ): Promise<CallToolResult> {
    if (this.closed) throw new ToolServerError("the run has ended");
    const target = targetOf(server);
    if (target === null) {
      if (server.tokenState !== "unreadable") await markTokenUnreadable(server);
      throw new ToolServerError(UNREADABLE_TOKEN_MESSAGE);
    }
    let connecting = this.clients.get(server.id);
    if (!connecting) {
      connecting = connectClient(target, { ...this.options, timeoutMs: LIST_TIMEOUT_MS });
      this.clients.set(server.id, connecting);
    }
    let client: Client;
    try {
      client = await connecting;
    } catch (error) {
      this.clients.delete(server.id);
      throw error;
    }
    try {
      return await callRemoteTool(client, target, {
        name: call.tool,
        args: call.args,
        signal: call.signal,
        timeoutMs: this.options.callTimeoutMs ?? CALL_TIMEOUT_MS,
      });
    } catch (error) {
      // The connection may be broken: the next call connects afresh.
      if (this.clients.get(server.id) === connecting) this.clients.delete(server.id);
      void client.close().catch(() => undefined);
      throw error;
    }
  }

  /** Closes every connection; later calls fail. */
  async close(): Promise<void> {
    this.closed = true;
    const pending = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(
      pending.map((connecting) =>
        connecting.then((client) => client.close()).catch(() => undefined),
      ),
    );
  }
}
