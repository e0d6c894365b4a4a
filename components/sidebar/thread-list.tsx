"use client";
// The "Threads" navigation: loading skeleton, error with Retry, empty state, the threads
// newest first with the current one marked, "Load more", and the delete confirmation.
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { DeleteThreadDialog } from "./delete-thread-dialog";
import type { ThreadSummary } from "./thread-api";
import { ThreadItem } from "./thread-item";
import { useThreads } from "./use-threads";

function threadIdFromPath(pathname: string | null): string | null {
  const match = pathname?.match(/^\/chat\/([^/]+)/);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

function ThreadListSkeleton() {
  return (
    <div role="status" aria-busy="true" className="space-y-1 px-1 py-1">
      <span className="sr-only">Loading conversations…</span>
      {["w-4/5", "w-3/5", "w-11/12", "w-2/3", "w-3/4", "w-1/2"].map((width) => (
        <div key={width} aria-hidden="true" className="flex h-8 items-center px-2">
          <div className={`h-3 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800 ${width}`} />
        </div>
      ))}
    </div>
  );
}

export function ThreadList() {
  const router = useRouter();
  const currentId = threadIdFromPath(usePathname());
  const {
    threads,
    hasMore,
    status,
    loadError,
    retry,
    loadMore,
    loadingMore,
    loadMoreError,
    rename,
    remove,
  } = useThreads();
  const [deleting, setDeleting] = useState<ThreadSummary | null>(null);

  async function deleteAndLeave(thread: ThreadSummary) {
    await remove(thread);
    if (thread.id === currentId) router.push("/");
  }

  return (
    <nav aria-label="Threads" className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
      {status === "loading" && <ThreadListSkeleton />}

      {status === "error" && (
        <div
          role="alert"
          className="mx-1 rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-500/10 dark:text-red-300"
        >
          <p>{loadError ?? "Couldn't load conversations."}</p>
          <button
            type="button"
            onClick={retry}
            className="mt-2 rounded-md border border-red-300 px-2 py-1 font-medium hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-red-500/40 dark:hover:bg-red-500/20"
          >
            Retry
          </button>
        </div>
      )}

      {status === "ready" && threads.length === 0 && (
        <p className="px-3 py-6 text-center text-sm text-zinc-500 dark:text-zinc-400">
          No conversations yet
        </p>
      )}

      {threads.length > 0 && status !== "loading" && (
        <ul className="space-y-0.5">
          {threads.map((thread) => (
            <ThreadItem
              key={thread.id}
              thread={thread}
              current={thread.id === currentId}
              onRename={rename}
              onDelete={setDeleting}
            />
          ))}
        </ul>
      )}

      {status === "ready" && hasMore && (
        <div className="px-1 pt-2">
          <button
            type="button"
            onClick={loadMore}
            disabled={loadingMore}
            aria-busy={loadingMore}
            className="w-full rounded-md px-2 py-1.5 text-sm text-zinc-600 hover:bg-zinc-200/60 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-60 dark:text-zinc-400 dark:hover:bg-zinc-800/60"
          >
            {loadingMore ? "Loading…" : "Load more"}
          </button>
          {loadMoreError && (
            <p role="alert" className="px-2 pt-1 text-xs text-red-600 dark:text-red-400">
              {loadMoreError}
            </p>
          )}
        </div>
      )}

      {deleting && (
        <DeleteThreadDialog
          key={deleting.id}
          thread={deleting}
          onConfirm={deleteAndLeave}
          onClose={() => setDeleting(null)}
        />
      )}
    </nav>
  );
}
