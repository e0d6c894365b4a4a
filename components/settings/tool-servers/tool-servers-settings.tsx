"use client";
// Settings → Tool servers: the outside MCP servers whose tools the user's agents may call. Loads
// the list in the browser, adds a server, and shows each one's tools, token and last error.
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { LoadingState } from "@/components/ui/loading-state";
import { AddToolServer } from "./add-tool-server";
import { fetchToolServers, type ToolServerEntry } from "./tool-server-api";
import { ToolServerCard } from "./tool-server-card";

type Load =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "ready"; servers: ToolServerEntry[] };

const bySlug = (a: ToolServerEntry, b: ToolServerEntry) => a.slug.localeCompare(b.slug);

export function ToolServersSettings() {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  // Where focus goes when the server that held it is removed.
  const listRef = useRef<HTMLDivElement>(null);

  const reload = useCallback(async () => {
    setLoad({ state: "loading" });
    try {
      setLoad({ state: "ready", servers: [...(await fetchToolServers())].sort(bySlug) });
    } catch (error) {
      setLoad({
        state: "failed",
        message: error instanceof Error ? error.message : "Couldn't load your tool servers.",
      });
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const update = (fn: (servers: ToolServerEntry[]) => ToolServerEntry[]) =>
    setLoad((current) =>
      current.state === "ready" ? { state: "ready", servers: fn(current.servers) } : current,
    );

  function added(server: ToolServerEntry) {
    update((list) => [...list.filter((s) => s.id !== server.id), server].sort(bySlug));
    if (server.lastError) toast.error(`Added ${server.slug}, but couldn't list its tools`);
    else
      toast.success(
        `Added ${server.slug} with ${server.tools.length} tool${server.tools.length === 1 ? "" : "s"}`,
      );
  }

  return (
    <div className="space-y-4">
      <AddToolServer onAdded={added} />
      <div ref={listRef} tabIndex={-1} className="outline-none">
        {load.state === "loading" ? (
          <LoadingState label="Loading tool servers…" />
        ) : load.state === "failed" ? (
          <Alert onRetry={() => void reload()}>{load.message}</Alert>
        ) : load.servers.length === 0 ? (
          <EmptyState>
            No tool servers yet. Add one above, then allow its tools for an agent in Agents.
          </EmptyState>
        ) : (
          <ul aria-label="Tool servers" className="space-y-3">
            {load.servers.map((server) => (
              <ToolServerCard
                key={server.id}
                server={server}
                onChange={(next) =>
                  update((list) => list.map((s) => (s.id === next.id ? next : s)))
                }
                onRemoved={(gone) => {
                  update((list) => list.filter((s) => s.id !== gone.id));
                  toast.success(`Removed ${gone.slug}`);
                  listRef.current?.focus();
                }}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
