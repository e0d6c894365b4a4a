"use client";
// Re-reading the newest page of the thread: sessions, context, the running reset and the live
// streams always (new ones are followed); the messages only while nothing streams, when the
// stored copies replace the live ones so the list matches a reload. Also follows the replies
// that were streaming when the page was rendered.
import { useCallback, useEffect, useRef } from "react";
import { inThreadOrder } from "@/lib/chat/format-messages";
import {
  type FollowedStream,
  hasAnswerStarted,
  ownStreamsOf,
  type QueuedEntry,
  queuedMessages,
  reconcileMessages,
  withLiveMessages,
} from "@/lib/chat/live-messages";
import type { ChatMessage, LiveStream } from "@/lib/chat/types";
import { type FetchPage, MESSAGES_PER_PAGE, type MessagePage } from "./use-thread-pages";

interface Now {
  messages: ChatMessage[];
  queued: QueuedEntry[];
  status: string;
  busy: boolean;
  followed: FollowedStream[];
}

export function useThreadRefresh({
  fetchPage,
  now,
  initialLive,
  follow,
  onPage,
  onQuiet,
  onBusy,
  onFailed,
}: {
  fetchPage: FetchPage;
  /** The page's live state at this render. */
  now: Now;
  initialLive: readonly LiveStream[] | undefined;
  follow: (
    live: readonly LiveStream[],
    messages: readonly ChatMessage[],
    own: { requests: ReadonlySet<string>; messages: ReadonlySet<string> },
  ) => void;
  /** Every page read: sessions, context, reset, coverage. */
  onPage: (page: MessagePage) => void;
  /** Nothing streams: the merged list to show. */
  onQuiet: (page: MessagePage, merged: ChatMessage[]) => void;
  /** Something streams: read again once it is quiet. */
  onBusy: () => void;
  /** The read failed while quiet with messages queued: the list keeping them. */
  onFailed: (kept: ChatMessage[]) => void;
}) {
  const latest = useRef(now);
  latest.current = now;
  // What this tab's own requests answered, kept after they end: a re-read made just as one of
  // them finished may still list its stream as live, and this tab has shown it already.
  const own = useRef({ requests: new Set<string>(), messages: new Set<string>() });
  const ownNow = useCallback(() => {
    const current = ownStreamsOf(latest.current);
    for (const id of current.requests) own.current.requests.add(id);
    for (const id of current.messages) own.current.messages.add(id);
    // A queued message whose request ended before its answer began (it waits for a handoff
    // under review) is answered later by the server on its own: that stream is followed.
    for (const entry of latest.current.queued) {
      if (entry.done && !hasAnswerStarted(entry.answer)) own.current.requests.delete(entry.user.id);
    }
    return own.current;
  }, []);
  // Noted as each request starts, not only when a re-read happens to run during it.
  useEffect(() => {
    if (now.status === "submitted" || now.status === "streaming" || now.queued.length > 0) ownNow();
  }, [now.status, now.queued, ownNow]);
  const handlers = useRef({ onPage, onQuiet, onBusy, onFailed });
  handlers.current = { onPage, onQuiet, onBusy, onFailed };

  // The replies the server was streaming when the page was rendered.
  useEffect(() => {
    if (initialLive && initialLive.length > 0) {
      follow(initialLive, latest.current.messages, ownNow());
    }
  }, [initialLive, follow, ownNow]);

  const refreshing = useRef(false);
  // A re-read that failed (the server is down or restarting) is tried again, less and less often.
  const retry = useRef<{ timer?: ReturnType<typeof setTimeout>; delay: number }>({
    delay: RETRY_FIRST_MS,
  });
  useEffect(() => () => clearTimeout(retry.current.timer), []);
  const refresh = useCallback(async () => {
    if (refreshing.current) return;
    refreshing.current = true;
    clearTimeout(retry.current.timer);
    try {
      const page = await fetchPage({ limit: MESSAGES_PER_PAGE });
      retry.current.delay = RETRY_FIRST_MS;
      handlers.current.onPage(page);
      const current = latest.current;
      if (page.live) {
        follow(page.live, [...current.messages, ...page.messages], ownNow());
      }
      if (current.busy) {
        handlers.current.onBusy();
        return;
      }
      const local = [...current.messages, ...queuedMessages(current.queued, true)];
      const merged = reconcileMessages(withLiveMessages(local, current.followed), page.messages);
      handlers.current.onQuiet(page, merged);
    } catch {
      // The live copies stay; nothing sent is dropped from view.
      const { delay } = retry.current;
      retry.current.delay = Math.min(delay * 2, RETRY_MAX_MS);
      retry.current.timer = setTimeout(() => void refreshRef.current(), delay);
      const current = latest.current;
      if (!current.busy && current.queued.length > 0) {
        handlers.current.onFailed(
          inThreadOrder([...current.messages, ...queuedMessages(current.queued, true)]),
        );
      }
    } finally {
      refreshing.current = false;
    }
  }, [fetchPage, follow, ownNow]);
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  return refresh;
}

const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 15_000;
