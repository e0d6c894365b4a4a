// The settings page's calls to /api/tool-servers (outside MCP servers whose tools agents may
// use), through the one API client: every answer is parsed with the schema below, and a refusal
// throws its ApiError with the server's message and field errors.
import { z } from "zod";
import { del, get, patch, post } from "@/lib/api/client";

const timestamp = z.iso.datetime({ offset: true });

const toolServerToolSchema = z.object({
  name: z.string(),
  description: z.string().nullish(),
  /** Marked read-only by the user: it runs without asking for approval. */
  readOnly: z.boolean(),
});

const toolServerViewSchema = z.object({
  id: z.string(),
  slug: z.string(),
  url: z.string(),
  /** "stored": a token is kept (never sent back); "unreadable": it must be entered again. */
  tokenState: z.enum(["none", "stored", "unreadable"]),
  tools: z.array(toolServerToolSchema),
  toolsFetchedAt: timestamp.nullable(),
  lastError: z.string().nullable(),
  createdAt: timestamp,
});
export type ToolServerEntry = z.output<typeof toolServerViewSchema>;

const serverAnswer = z.object({ server: toolServerViewSchema });
const serverPath = (id: string) => `/api/tool-servers/${encodeURIComponent(id)}`;

export async function fetchToolServers(): Promise<ToolServerEntry[]> {
  const schema = z.object({ servers: z.array(toolServerViewSchema) });
  return (await get("/api/tool-servers", schema, { fallback: "Couldn't load your tool servers." }))
    .servers;
}

export async function addToolServer(input: {
  slug: string;
  url: string;
  token?: string;
}): Promise<ToolServerEntry> {
  const answer = await post("/api/tool-servers", input, serverAnswer, {
    fallback: "Couldn't add the tool server.",
  });
  return answer.server;
}

export async function patchToolServer(
  id: string,
  body: { url?: string; token?: string | null; readOnlyTools?: string[] },
): Promise<ToolServerEntry> {
  const answer = await patch(serverPath(id), body, serverAnswer, {
    fallback: "Couldn't save the tool server.",
  });
  return answer.server;
}

/** Lists the server's tools again; a server that could not be reached comes back with lastError. */
export async function refreshToolServer(id: string): Promise<ToolServerEntry> {
  const answer = await post(`${serverPath(id)}/refresh`, undefined, serverAnswer, {
    fallback: "Couldn't refresh the tool server.",
  });
  return answer.server;
}

/** Resolves when the server is gone, including when it was already removed elsewhere (404). */
export function removeToolServer(id: string): Promise<void> {
  return del(serverPath(id), { acceptStatuses: [404], fallback: "Couldn't remove the server." });
}
