// The sidebar's thread list: first page on mount, older pages on demand, a cheap refetch of the
// first page whenever the chat panel announces a change, optimistic rename and delete.

import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { ApiError } from "@/lib/api/client";
import {
  fetchThreadSummaries,
  renameThread,
  requestThreadDeletion,
  type ThreadSummary,
  type ThreadSummaryPage,
  threadLabel,
} from "./thread-api";

/** Dispatched on `window` whenever a thread is created or its title or updatedAt changes. */
export const THREADS_CHANGED_EVENT = "baton:threads-changed";
/** Dispatched when a new thread's first message is sent (detail: its id and placeholder title). */
const THREAD_STARTED_EVENT = "baton:thread-started";

/** How long a started thread is listed without the server listing it (its POST failed). */
const STARTED_TTL_MS = 60_000;

// Coalesces the bursts the chat panel sends (created, titled, updated) into one request.
const REFRESH_DEBOUNCE_MS = 150;

interface ThreadListState {
  threads: ThreadSummary[];
  nextCursor: string | null;
  /** Older pages are loaded, so a refetch of the first page must keep them. */
  extended: boolean;
}

export type ThreadListStatus = "loading" | "ready" | "error";

/** The server orders by (updatedAt desc, id desc); true when `a` comes after `b`. */
function sortsAfter(a: ThreadSummary, b: ThreadSummary): boolean {
  return a.updatedAt < b.updatedAt || (a.updatedAt === b.updatedAt && a.id < b.id);
}

function mergeFirstPage(current: ThreadListState, page: ThreadSummaryPage): ThreadListState {
  if (!current.extended || page.nextCursor === null) {
    return { threads: page.threads, nextCursor: page.nextCursor, extended: false };
  }
  // Older pages stay as loaded. A kept thread that would sort above the new first page's last
  // row but is missing from it can only have been deleted (updatedAt never decreases).
  const fresh = new Set(page.threads.map((t) => t.id));
  const last = page.threads.at(-1);
  const older = current.threads.filter(
    (t) => !fresh.has(t.id) && (last === undefined || sortsAfter(t, last)),
  );
  return { threads: [...page.threads, ...older], nextCursor: current.nextCursor, extended: true };
}

function appendPage(current: ThreadListState, page: ThreadSummaryPage): ThreadListState {
  const known = new Set(current.threads.map((t) => t.id));
  return {
    threads: [...current.threads, ...page.threads.filter((t) => !known.has(t.id))],
    nextCursor: page.nextCursor,
    extended: true,
  };
}

function replaceThread(
  state: ThreadListState,
  id: string,
  update: (thread: ThreadSummary) => ThreadSummary,
): ThreadListState {
  return { ...state, threads: state.threads.map((t) => (t.id === id ? update(t) : t)) };
}

export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

export function useThreads() {
  const [list, setList] = useState<ThreadListState>({
    threads: [],
    nextCursor: null,
    extended: false,
  });
  const [status, setStatus] = useState<ThreadListStatus>("loading");
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadMoreError, setLoadMoreError] = useState<string | null>(null);

  const alive = useRef(true);
  const refreshing = useRef(false);
  const refreshQueued = useRef(false);
  const loadingMoreRef = useRef(false);
  // A refetch that started before a delete finished must not bring the thread back.
  const deletedIds = useRef(new Set<string>());
  // Threads whose first message is on its way: listed until the server lists them.
  const started = useRef(new Map<string, { thread: ThreadSummary; at: number }>());

  const withoutDeleted = useCallback((page: ThreadSummaryPage): ThreadSummaryPage => {
    const now = Date.now();
    for (const [id, entry] of started.current) {
      if (page.threads.some((t) => t.id === id) || now - entry.at > STARTED_TTL_MS) {
        started.current.delete(id);
      }
    }
    const pending = [...started.current.values()].map((entry) => entry.thread);
    return {
      ...page,
      threads: [...pending, ...page.threads].filter((t) => !deletedIds.current.has(t.id)),
    };
  }, []);

  // One first-page request at a time; calls made meanwhile collapse into one more afterwards.
  const refresh = useCallback(
    async function refreshFirstPage(): Promise<void> {
      if (refreshing.current) {
        refreshQueued.current = true;
        return;
      }
      refreshing.current = true;
      refreshQueued.current = false;
      try {
        const page = withoutDeleted(await fetchThreadSummaries(null));
        if (!alive.current) return;
        setList((current) => mergeFirstPage(current, page));
        setStatus("ready");
        setLoadError(null);
      } catch (error) {
        if (!alive.current) return;
        // A failed background refetch keeps the list on screen; only a first load shows it.
        setStatus((current) => (current === "ready" ? current : "error"));
        setLoadError(errorMessage(error, "Couldn't load conversations."));
      } finally {
        refreshing.current = false;
        if (refreshQueued.current && alive.current) void refreshFirstPage();
      }
    },
    [withoutDeleted],
  );

  useEffect(() => {
    alive.current = true;
    void refresh();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const scheduleRefresh = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void refresh(), REFRESH_DEBOUNCE_MS);
    };
    const listStarted = (event: Event) => {
      const detail = (event as CustomEvent<{ id: string; title: string }>).detail;
      if (!detail) return;
      const at = new Date().toISOString();
      const thread: ThreadSummary = { ...detail, model: "", createdAt: at, updatedAt: at };
      started.current.set(detail.id, { thread, at: Date.now() });
      setList((current) =>
        current.threads.some((t) => t.id === detail.id)
          ? current
          : { ...current, threads: [thread, ...current.threads] },
      );
      setStatus("ready");
    };
    window.addEventListener(THREADS_CHANGED_EVENT, scheduleRefresh);
    window.addEventListener(THREAD_STARTED_EVENT, listStarted);
    return () => {
      alive.current = false;
      clearTimeout(timer);
      window.removeEventListener(THREADS_CHANGED_EVENT, scheduleRefresh);
      window.removeEventListener(THREAD_STARTED_EVENT, listStarted);
    };
  }, [refresh]);

  const retry = useCallback(() => {
    setStatus("loading");
    void refresh();
  }, [refresh]);

  const cursor = list.nextCursor;
  const loadMore = useCallback(async () => {
    if (!cursor || loadingMoreRef.current) return;
    loadingMoreRef.current = true;
    setLoadingMore(true);
    setLoadMoreError(null);
    try {
      const page = withoutDeleted(await fetchThreadSummaries(cursor));
      if (!alive.current) return;
      // A refetch meanwhile may have moved the first page's boundary; this page would then
      // leave a gap, so it is dropped and the button stays for another try.
      setList((current) => (current.nextCursor === cursor ? appendPage(current, page) : current));
    } catch (error) {
      if (alive.current) setLoadMoreError(errorMessage(error, "Couldn't load more conversations."));
    } finally {
      loadingMoreRef.current = false;
      if (alive.current) setLoadingMore(false);
    }
  }, [cursor, withoutDeleted]);

  const rename = useCallback(async (thread: ThreadSummary, title: string) => {
    const previous = thread.title;
    setList((current) => replaceThread(current, thread.id, (t) => ({ ...t, title })));
    try {
      const saved = await renameThread(thread.id, title);
      setList((current) => replaceThread(current, thread.id, () => saved));
      // Other views of this thread (the chat header) follow the same event; our own listener
      // refetches, which also moves the thread to where the server now orders it.
      window.dispatchEvent(new CustomEvent(THREADS_CHANGED_EVENT));
    } catch (error) {
      // Roll back only if nothing newer (a refetch, another rename) replaced our title.
      setList((current) =>
        replaceThread(current, thread.id, (t) =>
          t.title === title ? { ...t, title: previous } : t,
        ),
      );
      toast.error(`Couldn't rename “${threadLabel(thread)}”`, {
        description: errorMessage(error, "Check your connection and try again."),
      });
    }
  }, []);

  /** Deletes on the server, then drops the thread from the list; rejects with a message. */
  const remove = useCallback(async (thread: ThreadSummary) => {
    try {
      await requestThreadDeletion(thread.id);
    } catch (error) {
      throw new Error(errorMessage(error, "Couldn't reach the server. Try again."));
    }
    deletedIds.current.add(thread.id);
    setList((current) => ({
      ...current,
      threads: current.threads.filter((t) => t.id !== thread.id),
    }));
  }, []);

  return {
    threads: list.threads,
    hasMore: list.nextCursor !== null,
    status,
    loadError,
    retry,
    loadMore,
    loadingMore,
    loadMoreError,
    rename,
    remove,
  };
}
