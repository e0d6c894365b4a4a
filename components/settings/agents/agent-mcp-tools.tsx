"use client";
// The agent form's outside tools: for each of the user's MCP tool servers, allow all its tools
// (`mcp:<server>/*`) or single ones (`mcp:<server>/<tool>`). Entries naming a server or tool
// that is gone are listed so they can be taken out.
import Link from "next/link";
import type { ToolServerEntry } from "@/components/settings/tool-servers/tool-server-api";
import { EmptyState } from "@/components/ui/empty-state";
import { LoadingState } from "@/components/ui/loading-state";
import {
  mcpAllowAll,
  mcpAllowTool,
  setMcpServerAll,
  setMcpTool,
  unknownMcpEntries,
} from "@/lib/agents/profile-mcp-allow";

/** The user's servers, or why they are not there. */
export type ToolServersLoad =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "ready"; servers: ToolServerEntry[] };

export function McpToolFields({
  load,
  allow,
  onChange,
  invalid,
}: {
  load: ToolServersLoad;
  allow: readonly string[];
  onChange: (allow: string[]) => void;
  invalid: boolean;
}) {
  const servers = load.state === "ready" ? load.servers : [];
  const unknown = load.state === "ready" ? unknownMcpEntries(allow, servers) : [];
  return (
    <fieldset data-testid="agent-mcp-tools" className="space-y-3">
      <legend className="text-sm font-medium">Tools from tool servers</legend>
      {load.state === "loading" ? (
        <LoadingState label="Loading tool servers…" size="xs" />
      ) : load.state === "failed" ? (
        <p className="text-xs text-red-700 dark:text-red-300">{load.message}</p>
      ) : servers.length === 0 ? (
        <EmptyState size="xs">
          No tool servers yet. Add one in{" "}
          <Link
            href="/settings"
            className="font-medium text-indigo-700 underline dark:text-indigo-300"
          >
            Settings
          </Link>{" "}
          to let agents call its tools.
        </EmptyState>
      ) : null}
      {servers.map((server) => {
        const all = allow.includes(mcpAllowAll(server.slug));
        return (
          <fieldset
            key={server.id}
            data-testid="agent-mcp-server"
            data-slug={server.slug}
            className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
          >
            <legend className="px-1 font-mono text-xs font-semibold">{server.slug}</legend>
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-1"
                aria-invalid={invalid || undefined}
                checked={all}
                onChange={(e) => onChange(setMcpServerAll(allow, server.slug, e.target.checked))}
              />
              <span>
                All tools of {server.slug}
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  Also those it lists later.
                </span>
              </span>
            </label>
            {server.tools.length === 0 ? (
              <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                It lists no tools yet; refresh it in Settings.
              </p>
            ) : (
              <div className="mt-2 grid gap-x-5 gap-y-1 sm:grid-cols-2">
                {server.tools.map((tool) => (
                  <label key={tool.name} className="flex min-w-0 items-start gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="mt-1"
                      aria-invalid={invalid || undefined}
                      disabled={all}
                      checked={all || allow.includes(mcpAllowTool(server.slug, tool.name))}
                      onChange={(e) =>
                        onChange(setMcpTool(allow, server.slug, tool.name, e.target.checked))
                      }
                    />
                    <span className="min-w-0">
                      <code className="text-xs break-all">{tool.name}</code>
                      <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                        {tool.readOnly ? "read-only, runs without asking" : "asks before each call"}
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            )}
          </fieldset>
        );
      })}
      {unknown.length > 0 ? (
        <div className="space-y-1">
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            Allowed, but on none of your servers now:
          </p>
          {unknown.map((entry) => (
            <label key={entry} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked
                onChange={() => onChange(allow.filter((e) => e !== entry))}
              />
              <code className="text-xs break-all">{entry}</code>
            </label>
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}
