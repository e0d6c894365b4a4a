"use client";
// The pages of a long thread the reader has loaded beyond the newest one, and which seq ranges
// are known in full, so the list can stand in for the rest with placeholders and fetch the page
// a placeholder stands for when it nears the view.
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { get } from "@/lib/api/client";
import type { ReviewSetting } from "@/lib/api/thread-schemas";
import { type ThreadViewPage, threadViewPageSchema } from "@/lib/api/thread-schemas";
import { mergeSeqRanges, type PlaceholderItem, type SeqRange } from "@/lib/chat/format-messages";
import { KeptPages, type LoadedPage, type PageQuery } from "@/lib/chat/kept-pages";
import type {
  ActiveResetView,
  ChatMessage,
  ContextPart,
  DraftView,
  LiveStream,
  SessionSummary,
  ThreadPinView,
} from "@/lib/chat/types";

/** Messages per page fetched while scrolling (the thread API allows up to 500). */
export const MESSAGES_PER_PAGE = 100;

/** What both the thread API and the shared-thread page API answer. */
export interface MessagePage {
  sessions: SessionSummary[];
  messages: ChatMessage[];
  /** A seq (thread API) or an opaque cursor (shared view); null at the thread's start. */
  olderCursor: number | string | null;
  /** A seq (thread API) or an opaque cursor (shared view); null at the end. */
  newerCursor: number | string | null;
  context?: ContextPart | null;
  /** The newest page only (thread API): user messages the server is still answering. */
  answering?: string[];
  /** The thread API's thread: the agent it runs with now (the shared view has none). */
  thread?: { title?: string; profile?: string };
  /** The thread API only: replies streaming now, and the reset running now. */
  live?: LiveStream[];
  reset?: ActiveResetView | null;
  /** The thread API only: the drafted handoff waiting for review, and when resets stop at one. */
  draft?: DraftView | null;
  review?: ReviewSetting;
  /** The thread API only: the thread's current pins. */
  pins?: ThreadPinView[];
}

export type { PageQuery };

export type FetchPage = (query: PageQuery & { limit: number }) => Promise<MessagePage>;

/** Fetches a page of the thread API (`/api/threads/<id>`) by seq. */
export function fetchMessagePage(
  base: string,
  query: PageQuery & { limit: number },
): Promise<ThreadViewPage> {
  const params = new URLSearchParams({ limit: String(query.limit) });
  if (query.beforeSeq !== undefined) params.set("beforeSeq", String(query.beforeSeq));
  if (query.fromSeq !== undefined) params.set("fromSeq", String(query.fromSeq));
  return get(`${base}?${params}`, threadViewPageSchema, {
    fallback: "Couldn't load the thread.",
  });
}

/**
 * The seq range a page covers completely: everything between its cursor bounds, reaching the
 * thread's start when it has no older cursor and its end when a page read forward has no newer.
 */
export function coverageOf(query: PageQuery, page: MessagePage): SeqRange {
  const first = page.messages[0]?.metadata?.seq;
  const last = page.messages.at(-1)?.metadata?.seq;
  if (query.fromSeq !== undefined) {
    return {
      from: page.olderCursor === null ? 1 : query.fromSeq,
      to: page.newerCursor === null ? Number.POSITIVE_INFINITY : (last ?? query.fromSeq),
    };
  }
  const to = query.beforeSeq !== undefined ? query.beforeSeq - 1 : Number.POSITIVE_INFINITY;
  return { from: page.olderCursor === null ? 1 : (first ?? to), to };
}

/** The page a placeholder stands for: upward from the rows below it, or forward from its start. */
function queryFor(placeholder: PlaceholderItem): PageQuery {
  return placeholder.loadedBelow
    ? { beforeSeq: placeholder.toSeq + 1 }
    : { fromSeq: placeholder.fromSeq };
}

export function useThreadPages({
  initial,
  fetchPage,
  onSessions,
}: {
  /** The newest page, which the caller holds itself. */
  initial: MessagePage;
  fetchPage: FetchPage;
  onSessions?: (sessions: SessionSummary[]) => void;
}) {
  // Keeps at most MAX_KEPT_MESSAGES older messages loaded (see lib/chat/kept-pages.ts).
  const [store] = useState(() => new KeptPages());
  // Each fetched page is kept as its own array (never changed), so the list formats it once.
  const [loaded, setLoaded] = useState<readonly LoadedPage[]>([]);
  // What the newest page (and its refreshes) cover; the fetched pages add their own ranges.
  const [newest, setNewest] = useState<SeqRange[]>(() => [coverageOf({}, initial)]);
  // What the newest page covers, read when a fetched page lands (its coverage leaves that out).
  const newestNow = useRef(newest);
  useLayoutEffect(() => {
    newestNow.current = newest;
  }, [newest]);
  const inFlight = useRef(false);
  const warned = useRef(false);

  const addCoverage = useCallback((range: SeqRange) => {
    setNewest((previous) => mergeSeqRanges([...previous, range]));
  }, []);

  const loadNear = useCallback(
    (placeholders: PlaceholderItem[]) => {
      if (inFlight.current) return;
      const wanted = store.nextQuery(placeholders.map(queryFor));
      if (!wanted) return;
      inFlight.current = true;
      void fetchPage({ ...wanted, limit: MESSAGES_PER_PAGE })
        .then((page) => {
          setLoaded(store.add(page.messages, coverageOf(wanted, page), newestNow.current));
          onSessions?.(page.sessions);
        })
        .catch((error: unknown) => {
          if (!warned.current) {
            warned.current = true;
            toast.error(
              `Could not load these messages: ${error instanceof Error ? error.message : "unknown error"}`,
            );
          }
        })
        .finally(() => {
          inFlight.current = false;
          // A new covered array re-renders the list, which re-checks what is near the view.
          setNewest((previous) => [...previous]);
        });
    },
    [store, fetchPage, onSessions],
  );

  const pages = useMemo(
    () => loaded.flatMap((page) => (page.messages.length > 0 ? [page.messages] : [])),
    [loaded],
  );
  const covered = useMemo(
    () => mergeSeqRanges([...newest, ...loaded.flatMap((page) => page.covers)]),
    [newest, loaded],
  );
  return { pages, covered, loadNear, addCoverage };
}
