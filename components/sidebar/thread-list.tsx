"use client";
// The "Threads" navigation: a title search, loading skeleton, error with Retry, empty state, the
// threads newest first in date groups with the current one marked, "Load more", and the delete
// confirmation.
import { usePathname, useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { LoadingState } from "@/components/ui/loading-state";
import { groupByDate } from "@/lib/chat/date-groups";
import { DeleteThreadDialog } from "./delete-thread-dialog";
import type { ThreadSummary } from "./thread-api";
import { ThreadItem } from "./thread-item";
import { useThreadSearch } from "./use-thread-search";
import { useThreads } from "./use-threads";

function threadIdFromPath(pathname: string | null): string | null {
  const match = pathname?.match(/^\/chat\/([^/]+)/);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

const SKELETON_ROWS = ["w-4/5", "w-3/5", "w-11/12", "w-2/3", "w-3/4", "w-1/2"];

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
  const [query, setQuery] = useState("");
  const search = useThreadSearch(query);
  const searching = query.trim() !== "";
  // Grouped against the time of this render; a list left open overnight regroups on its next one.
  const groups = useMemo(() => groupByDate(threads, (t) => t.updatedAt, new Date()), [threads]);

  const item = (thread: ThreadSummary) => (
    <ThreadItem
      key={thread.id}
      thread={thread}
      current={thread.id === currentId}
      onRename={rename}
      onDelete={setDeleting}
    />
  );

  async function deleteAndLeave(thread: ThreadSummary) {
    await remove(thread);
    if (thread.id === currentId) router.push("/");
  }

  return (
    <nav aria-label="Threads" className="min-h-0 flex-1 overflow-y-auto px-2 pb-2">
      <search className="sticky top-0 z-10 bg-zinc-50 px-1 pb-2 dark:bg-zinc-900">
        <input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape" && query !== "") {
              e.stopPropagation();
              setQuery("");
            }
          }}
          maxLength={100}
          aria-label="Search threads by title"
          placeholder="Search threads"
          className="w-full rounded-md border border-zinc-200 bg-white px-2.5 py-1.5 text-sm outline-none placeholder:text-zinc-500 dark:text-zinc-400 focus:border-indigo-500 dark:border-zinc-700 dark:bg-zinc-800 dark:placeholder:text-zinc-400"
        />
      </search>

      {searching && <SearchResults search={search} query={query.trim()} item={item} />}

      {!searching && status === "loading" && (
        <LoadingState
          label="Loading conversations…"
          rows={SKELETON_ROWS}
          hideLabel
          className="px-1 py-1"
        />
      )}

      {!searching && status === "error" && (
        <Alert appearance="panel" className="mx-1" onRetry={retry} retryLabel="Retry">
          {loadError ?? "Couldn't load conversations."}
        </Alert>
      )}

      {!searching && status === "ready" && threads.length === 0 && (
        <EmptyState layout="centered">No conversations yet</EmptyState>
      )}

      {!searching &&
        threads.length > 0 &&
        status !== "loading" &&
        groups.map(({ group, items }) => (
          <section key={group} aria-label={group} className="pt-2 first-of-type:pt-0">
            <h2 className="px-2 pb-1 text-xs font-medium text-zinc-500 dark:text-zinc-400">
              {group}
            </h2>
            <ul className="space-y-0.5">{items.map(item)}</ul>
          </section>
        ))}

      {!searching && status === "ready" && hasMore && (
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
            <Alert size="xs" className="px-2 pt-1">
              {loadMoreError}
            </Alert>
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

function SearchResults({
  search,
  query,
  item,
}: {
  search: ReturnType<typeof useThreadSearch>;
  query: string;
  item: (thread: ThreadSummary) => React.ReactNode;
}) {
  if (search.status === "error") return <Alert className="px-3 py-2">{search.message}</Alert>;
  if (search.status !== "done") return <LoadingState label="Searching…" className="px-3 py-2" />;
  if (search.threads.length === 0) {
    return (
      <EmptyState layout="centered" role="status">
        No thread titles contain “{query}”
      </EmptyState>
    );
  }
  return (
    <>
      <ul aria-label="Search results" className="space-y-0.5">
        {search.threads.map(item)}
      </ul>
      {search.more ? (
        <p className="px-3 pt-2 text-xs text-zinc-500 dark:text-zinc-400">
          Showing the newest {search.threads.length}; type more to narrow it down.
        </p>
      ) : null}
    </>
  );
}
