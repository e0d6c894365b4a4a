// The MCP tools an agent is given: for each tool a stored server listed that the profile allows
// (`mcp:<slug>/<tool>` or `mcp:<slug>/*`), an AI SDK tool named `mcp__<slug>__<tool>` with the
// server's input schema. It needs the user's approval unless the user marked it read-only
// ("Allow for this session" grants it by that name). Results are text the model reads, spilled
// like the built-in tools' when large; a server that is down, slow or refused is a tool error
// and the run goes on. Calls never change the stored tool list.
import "server-only";
import { jsonSchema, type ToolSet, tool } from "ai";
import { log } from "@/core/log";
import { isMcpAllowed, mcpToolNames } from "@/core/mcp-tool-names";
import type { ToolServer } from "@/db/schema";
import { ToolServerError } from "@/lib/connections/errors";
import type { McpConnections } from "@/lib/connections/run-connections";
import { failure, type ToolContext } from "./context";
import { mcpToolOutput } from "./mcp-result";
import { withSpill } from "./spill";

export interface McpToolContext {
  /** The user's servers as stored. */
  servers: readonly ToolServer[];
  /** The run's connections; null for tools built only to count their definitions. */
  connections: McpConnections | null;
}

interface Entry {
  server: ToolServer;
  tool: ToolServer["tools"][number];
}

/** The stored tools `allow` names, servers by slug, each server's tools in listed order. */
function allowedEntries(allow: readonly string[], servers: readonly ToolServer[]): Entry[] {
  if (!allow.some((entry) => entry.startsWith("mcp:"))) return [];
  const entries: Entry[] = [];
  for (const server of [...servers].sort((a, b) => a.slug.localeCompare(b.slug))) {
    for (const listed of server.tools) {
      if (isMcpAllowed(allow, server.slug, listed.name)) entries.push({ server, tool: listed });
    }
  }
  return entries;
}

function errorText(serverSlug: string, error: unknown): string {
  if (!(error instanceof ToolServerError)) log.warn("mcp tool call failed", error);
  const reason = error instanceof ToolServerError ? error.message : "the call failed";
  return `The tool server ${serverSlug} could not run the tool: ${reason}.`;
}

export function createMcpTools(
  allow: readonly string[],
  mcp: McpToolContext,
  ctx: ToolContext,
): ToolSet {
  const entries = allowedEntries(allow, mcp.servers);
  const names = mcpToolNames(entries.map((e) => ({ slug: e.server.slug, tool: e.tool.name })));
  const tools: ToolSet = {};
  entries.forEach(({ server, tool: listed }, i) => {
    const name = names[i] as string;
    const readOnly = server.readOnlyTools.includes(listed.name);
    const definition = tool<Record<string, unknown>, unknown>({
      description: listed.description || `The ${listed.name} tool of the ${server.slug} server.`,
      inputSchema: jsonSchema<Record<string, unknown>>(listed.inputSchema as never),
      ...(readOnly ? {} : { needsApproval: async () => !(await ctx.isGranted(name)) }),
      execute: async (input, options) => {
        if (!mcp.connections) return failure("This tool cannot run here.");
        try {
          const result = await mcp.connections.call(server, {
            tool: listed.name,
            args: input ?? {},
            signal: options.abortSignal,
          });
          return mcpToolOutput(result as Record<string, unknown>);
        } catch (error) {
          if (options.abortSignal?.aborted) throw error;
          return failure(errorText(server.slug, error));
        }
      },
    });
    tools[name] = withSpill(name, definition, ctx);
  });
  return tools;
}
