// Talking to a remote MCP tool server: the official SDK client over Streamable HTTP, on the
// guarded fetch (ssrf.ts), with the bearer token when one is stored. Listing pages through
// `nextCursor` up to MAX_TOOLS tools; every request has a timeout shorter than the SDK's own.
// Failures become ToolServerErrors with a message for the user, never carrying the token.
import "server-only";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { REMOTE_TOOL_NAME_PATTERN } from "@/core/mcp-tool-names";
import type { ToolServerTool } from "@/db/schema";
import { ToolServerError, withoutSecret } from "./errors";
import { type GuardOptions, guardedFetch } from "./ssrf";

/** Connecting and listing every page of tools, together. */
export const LIST_TIMEOUT_MS = 10_000;
/** One tool call (the SDK's default is 60 s). */
export const CALL_TIMEOUT_MS = 30_000;
/** Tools kept from one server; the rest of a longer list is dropped. */
const MAX_TOOLS = 200;
/** Pages read at most (a server whose cursor never ends stops here). */
const MAX_PAGES = 50;
const MAX_DESCRIPTION = 2000;

export interface ServerTarget {
  url: string;
  /** The bearer token, opened; null: none is sent. */
  token: string | null;
}

export type ClientOptions = GuardOptions;

const CLIENT_INFO = { name: "baton", version: "1.0.0" };

/** A connected SDK client (initialize done); the caller closes it. */
export async function connectClient(
  target: ServerTarget,
  options: ClientOptions & { timeoutMs: number; signal?: AbortSignal },
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    fetch: guardedFetch(options),
    requestInit: target.token ? { headers: { authorization: `Bearer ${target.token}` } } : {},
  });
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(transport, { timeout: options.timeoutMs, signal: options.signal });
    return client;
  } catch (error) {
    await client.close().catch(() => undefined);
    throw toolServerError(error, target, options.timeoutMs);
  }
}

function storedTool(tool: {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}): ToolServerTool {
  const description = (tool.description ?? tool.title ?? "").slice(0, MAX_DESCRIPTION);
  const schema = tool.inputSchema?.type === "object" ? tool.inputSchema : { type: "object" };
  return { name: tool.name, description, inputSchema: schema };
}

/** The server's tools (at most MAX_TOOLS, names a profile can allow, each once). */
export async function listRemoteTools(
  target: ServerTarget,
  options: ClientOptions = {},
): Promise<ToolServerTool[]> {
  const deadline = Date.now() + LIST_TIMEOUT_MS;
  const remaining = () => Math.max(1, deadline - Date.now());
  const client = await connectClient(target, { ...options, timeoutMs: LIST_TIMEOUT_MS });
  try {
    const tools: ToolServerTool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES && tools.length < MAX_TOOLS; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, {
        timeout: remaining(),
        maxTotalTimeout: remaining(),
      });
      for (const tool of result.tools) {
        if (tools.length >= MAX_TOOLS) break;
        if (!REMOTE_TOOL_NAME_PATTERN.test(tool.name) || seen.has(tool.name)) continue;
        seen.add(tool.name);
        tools.push(storedTool(tool));
      }
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools;
  } catch (error) {
    throw toolServerError(error, target, LIST_TIMEOUT_MS);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** One tool call on a connected client; a failure to get an answer is a ToolServerError. */
export async function callRemoteTool(
  client: Client,
  target: ServerTarget,
  call: { name: string; args: Record<string, unknown>; signal?: AbortSignal; timeoutMs?: number },
): Promise<CallToolResult> {
  const timeout = call.timeoutMs ?? CALL_TIMEOUT_MS;
  try {
    const result = await client.callTool({ name: call.name, arguments: call.args }, undefined, {
      timeout,
      maxTotalTimeout: timeout,
      signal: call.signal,
    });
    return result as CallToolResult;
  } catch (error) {
    throw toolServerError(error, target, timeout);
  }
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
  ERR_TLS_CERT_ALTNAME_INVALID: "its TLS certificate is for another host",
};

function errorCode(error: unknown): string | null {
  for (let e = error, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

function httpStatus(error: unknown): number | null {
  if (error instanceof StreamableHTTPError && typeof error.code === "number" && error.code >= 100) {
    return error.code;
  }
  const message = error instanceof Error ? error.message : "";
  const status = /\bHTTP (\d{3})\b/.exec(message)?.[1];
  return status ? Number(status) : null;
}

/** What went wrong, for the user; the token, should the server echo it, is masked. */
function toolServerError(error: unknown, target: ServerTarget, timeoutMs: number): ToolServerError {
  if (error instanceof ToolServerError) return error;
  const host = new URL(target.url).host;
  const name = error instanceof Error ? error.name : "";
  if (
    (error instanceof McpError && error.code === ErrorCode.RequestTimeout) ||
    name === "TimeoutError"
  ) {
    return new ToolServerError(`${host} did not answer within ${timeoutMs / 1000} s`);
  }
  if (name === "AbortError") return new ToolServerError("the call was cancelled");
  const status = httpStatus(error);
  if (status === 401 || status === 403 || name === "UnauthorizedError") {
    return new ToolServerError(
      target.token
        ? `${host} refused the token (HTTP ${status ?? 401}); enter a valid token`
        : `${host} needs a token (HTTP ${status ?? 401})`,
    );
  }
  if (status !== null) return new ToolServerError(`${host} answered HTTP ${status}`);
  const code = errorCode(error);
  const network = code ? NETWORK_CODES[code] : undefined;
  if (network) return new ToolServerError(`could not reach ${host}: ${network}`);
  const detail = error instanceof Error ? error.message : String(error);
  const text = withoutSecret(detail, target.token).replace(/\s+/g, " ").slice(0, 300);
  return new ToolServerError(`${host} failed: ${text || "unknown error"}`);
}
