"use client";
// The tools a server listed at its last refresh, each with its read-only switch: a read-only
// tool runs without asking; any other asks for approval before each call.
import { useState } from "react";
import { toast } from "sonner";
import { EmptyState } from "@/components/ui/empty-state";
import { patchToolServer, type ToolServerEntry } from "./tool-server-api";

export function ToolServerTools({
  server,
  onChange,
}: {
  server: ToolServerEntry;
  onChange: (server: ToolServerEntry) => void;
}) {
  // The switch being saved shows its new state at once; a refusal puts it back.
  const [saving, setSaving] = useState<{ name: string; readOnly: boolean } | null>(null);

  async function toggle(name: string, readOnly: boolean) {
    setSaving({ name, readOnly });
    const readOnlyTools = server.tools
      .filter((tool) => (tool.name === name ? readOnly : tool.readOnly))
      .map((tool) => tool.name);
    try {
      onChange(await patchToolServer(server.id, { readOnlyTools }));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Couldn't save the tool.");
    } finally {
      setSaving(null);
    }
  }

  if (server.tools.length === 0) {
    return (
      <EmptyState>
        {server.toolsFetchedAt ? "This server lists no tools." : "No tools listed yet: refresh."}
      </EmptyState>
    );
  }
  return (
    <ul
      aria-label={`Tools of ${server.slug}`}
      className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
    >
      {server.tools.map((tool) => (
        <li
          key={tool.name}
          data-testid="tool-server-tool"
          data-tool={tool.name}
          className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 px-3 py-2"
        >
          <div className="min-w-48 flex-1">
            <code className="text-xs break-all">{tool.name}</code>
            {tool.description ? (
              <p className="text-xs break-words text-zinc-600 dark:text-zinc-400">
                {tool.description}
              </p>
            ) : null}
          </div>
          <label className="flex shrink-0 items-center gap-1.5 text-xs">
            <input
              type="checkbox"
              checked={saving?.name === tool.name ? saving.readOnly : tool.readOnly}
              disabled={saving !== null}
              aria-label={`${tool.name} is read-only (runs without approval)`}
              onChange={(e) => void toggle(tool.name, e.target.checked)}
            />
            Read-only
            <span className="text-zinc-500 dark:text-zinc-400">
              {(saving?.name === tool.name ? saving.readOnly : tool.readOnly)
                ? "(runs without asking)"
                : "(asks first)"}
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}
