// The tool-server API's logic (docs/connections.md): owner-scoped create, list, change, refresh
// and delete, and the one row → JSON mapping, which never includes the token. A URL the address
// policy refuses is a 400 on `url` that stores nothing; a server that cannot be reached is
// stored anyway, with the failure as its `lastError`.
import "server-only";
import { BatonError } from "@/core/errors";
import {
  deleteToolServer,
  getToolServer,
  insertToolServer,
  listToolServers,
  updateToolServer,
} from "@/db/queries/tool-servers";
import type { ToolServer, ToolServerTokenState } from "@/db/schema";
import { ToolServerError } from "./errors";
import { type ClientOptions, listRemoteTools } from "./mcp-client";
import { targetOf, tokenFields, UNREADABLE_TOKEN_MESSAGE, withTokenState } from "./server-token";
import { checkTarget } from "./ssrf";
import type { CreateToolServerBody, PatchToolServerBody } from "./tool-server-schema";

export interface ToolServerView {
  id: string;
  slug: string;
  url: string;
  tokenState: ToolServerTokenState;
  tools: { name: string; description: string; readOnly: boolean }[];
  toolsFetchedAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

function toolServerJson(row: ToolServer): ToolServerView {
  const readOnly = new Set(row.readOnlyTools);
  return {
    id: row.id,
    slug: row.slug,
    url: row.url,
    tokenState: row.tokenState,
    tools: row.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      readOnly: readOnly.has(tool.name),
    })),
    toolsFetchedAt: row.toolsFetchedAt?.toISOString() ?? null,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toolServerNotFound(): BatonError {
  return new BatonError("not_found:tool_server", "There is no such tool server.");
}

/** A URL the address policy refuses, as the field error a form shows beside it. */
async function assertReachable(url: string, options: ClientOptions): Promise<void> {
  try {
    await checkTarget(new URL(url), options);
  } catch (error) {
    // A name that does not resolve today is stored (its refresh reports it); a refusal is not.
    if (error instanceof ToolServerError && error.refused) {
      throw new BatonError("bad_request:body", "The request is invalid.", {
        url: [error.message],
      });
    }
    if (!(error instanceof ToolServerError)) throw error;
  }
}

/** Lists the server's tools now: on success they replace the stored list, else lastError. */
async function refreshRow(row: ToolServer, options: ClientOptions): Promise<ToolServer> {
  const target = targetOf(row);
  let fields: Partial<ToolServer>;
  if (target === null) {
    fields = { tokenState: "unreadable", lastError: UNREADABLE_TOKEN_MESSAGE };
  } else {
    try {
      const tools = await listRemoteTools(target, options);
      fields = { tools, toolsFetchedAt: new Date(), lastError: null };
    } catch (error) {
      if (!(error instanceof ToolServerError)) throw error;
      fields = { lastError: error.message };
    }
  }
  const updated = await updateToolServer({ userId: row.userId, id: row.id, change: () => fields });
  if (!updated) throw toolServerNotFound();
  return updated;
}

async function ownServer(userId: string, id: string): Promise<ToolServer> {
  const row = await getToolServer({ userId, id });
  if (!row) throw toolServerNotFound();
  return row;
}

export async function listToolServerViews({ userId }: { userId: string }) {
  const rows = await listToolServers({ userId });
  return Promise.all(rows.map(async (row) => toolServerJson(await withTokenState(row))));
}

export async function getToolServerView({ userId, id }: { userId: string; id: string }) {
  return toolServerJson(await withTokenState(await ownServer(userId, id)));
}

/** Stores the server, then lists its tools (a failure is kept as its lastError). */
export async function createToolServerView(
  { userId, body }: { userId: string; body: CreateToolServerBody },
  options: ClientOptions = {},
): Promise<ToolServerView> {
  await assertReachable(body.url, options);
  const row = await insertToolServer({
    userId,
    slug: body.slug,
    fields: { url: body.url, ...(body.token === undefined ? {} : tokenFields(body.token)) },
  });
  return toolServerJson(await refreshRow(row, options));
}

/**
 * Changes the URL, the token or the read-only tools; a new URL or token lists the tools again.
 * Read-only names must be tools the server listed.
 */
export async function updateToolServerView(
  { userId, id, patch }: { userId: string; id: string; patch: PatchToolServerBody },
  options: ClientOptions = {},
): Promise<ToolServerView> {
  const current = await ownServer(userId, id);
  if (patch.readOnlyTools) {
    const listed = new Set(current.tools.map((tool) => tool.name));
    const unknown = patch.readOnlyTools.filter((name) => !listed.has(name));
    if (unknown.length > 0) {
      throw new BatonError("bad_request:body", "The request is invalid.", {
        readOnlyTools: [`Not a tool of this server: ${unknown.slice(0, 5).join(", ")}.`],
      });
    }
  }
  if (patch.url !== undefined) await assertReachable(patch.url, options);
  const row = await updateToolServer({
    userId,
    id,
    change: () => ({
      ...(patch.url === undefined ? {} : { url: patch.url }),
      ...(patch.token === undefined ? {} : tokenFields(patch.token)),
      ...(patch.readOnlyTools === undefined ? {} : { readOnlyTools: patch.readOnlyTools }),
    }),
  });
  if (!row) throw toolServerNotFound();
  const reconnect = patch.url !== undefined || patch.token !== undefined;
  return toolServerJson(reconnect ? await refreshRow(row, options) : row);
}

/** Lists the tools again; a failure keeps the stored list and is answered as lastError. */
export async function refreshToolServerView(
  { userId, id }: { userId: string; id: string },
  options: ClientOptions = {},
): Promise<ToolServerView> {
  return toolServerJson(await refreshRow(await ownServer(userId, id), options));
}

export async function deleteToolServerById({ userId, id }: { userId: string; id: string }) {
  if (!(await deleteToolServer({ userId, id }))) throw toolServerNotFound();
}
