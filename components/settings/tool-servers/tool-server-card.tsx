"use client";
// One tool server in settings: its name, URL (which can be changed) and token state, the last
// refresh's error, its tools, and Refresh and Remove (which asks first).
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import { refreshToolServer, removeToolServer, type ToolServerEntry } from "./tool-server-api";
import { ToolServerToken } from "./tool-server-token";
import { ToolServerTools } from "./tool-server-tools";
import { ToolServerUrl } from "./tool-server-url";

export function ToolServerCard({
  server,
  onChange,
  onRemoved,
}: {
  server: ToolServerEntry;
  onChange: (server: ToolServerEntry) => void;
  onRemoved: (server: ToolServerEntry) => void;
}) {
  const [busy, setBusy] = useState<"refresh" | "remove" | null>(null);
  const [confirming, setConfirming] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  const headingId = `tool-server-${server.id}`;

  // Asking to remove moves focus to Keep, the choice that changes nothing; Keep gives it back.
  useEffect(() => {
    if (confirming) keepRef.current?.focus();
    else if (asked.current) removeRef.current?.focus();
    asked.current = confirming;
  }, [confirming]);

  async function refresh() {
    setBusy("refresh");
    try {
      const next = await refreshToolServer(server.id);
      onChange(next);
      if (next.lastError) toast.error(`Couldn't reach ${server.slug}`);
      else toast.success(`Listed ${next.tools.length} tool${next.tools.length === 1 ? "" : "s"}`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Couldn't refresh the server.");
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    setConfirming(false);
    setBusy("remove");
    try {
      await removeToolServer(server.id);
      onRemoved(server);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Couldn't remove the server.");
      setBusy(null);
    }
  }

  return (
    <li
      aria-labelledby={headingId}
      data-testid="tool-server"
      data-slug={server.slug}
      className="space-y-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} className="font-mono text-sm font-semibold">
            {server.slug}
          </h3>
          <ToolServerUrl server={server} onChange={onChange} />
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            {server.toolsFetchedAt ? (
              <>
                Tools listed <RelativeTime iso={server.toolsFetchedAt} />
              </>
            ) : (
              "Tools not listed yet"
            )}
          </p>
        </div>
        <div className="flex flex-wrap gap-1">
          <Button
            size="sm"
            disabled={busy !== null}
            aria-label={`Refresh ${server.slug}`}
            onClick={() => void refresh()}
          >
            {busy === "refresh" ? "Refreshing…" : "Refresh"}
          </Button>
          {confirming ? (
            <>
              <Button
                size="sm"
                variant="danger"
                aria-label={`Confirm removing ${server.slug}`}
                onClick={() => void remove()}
              >
                Remove now
              </Button>
              <Button ref={keepRef} size="sm" variant="ghost" onClick={() => setConfirming(false)}>
                Keep
              </Button>
            </>
          ) : (
            <Button
              ref={removeRef}
              size="sm"
              variant="danger"
              disabled={busy !== null}
              aria-label={`Remove ${server.slug}`}
              onClick={() => setConfirming(true)}
            >
              {busy === "remove" ? "Removing…" : "Remove"}
            </Button>
          )}
        </div>
      </div>
      {confirming ? (
        <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
          Remove {server.slug}? Agents that allow its tools can no longer call them.
        </p>
      ) : null}
      {server.lastError ? (
        <div
          data-testid="tool-server-error"
          className="rounded-md border border-red-300 bg-red-50 p-2 text-sm break-words text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          <span className="font-medium">Last refresh failed:</span> {server.lastError}
        </div>
      ) : null}
      <ToolServerToken server={server} onChange={onChange} />
      <ToolServerTools server={server} onChange={onChange} />
    </li>
  );
}
