"use client";
// A shared thread, read-only: the same virtualized list, dividers, handoff cards and navigator
// as the owner's view, paged through the share link; nothing here can change the thread. Pages
// are opened with the opaque cursors the link hands out (see lib/chat/share-anchors.ts).
import { useCallback, useMemo, useRef, useState } from "react";
import { formatMessages, messageGaps } from "@/lib/chat/format-messages";
import {
  ShareAnchors,
  type SharedSessionSummary,
  type SharedThreadPage,
} from "@/lib/chat/share-anchors";
import type { ChatMessage, SessionSummary } from "@/lib/chat/types";
import { MessageList } from "./message-list";
import { coverageOf, type FetchPage, fetchPageAt, useThreadPages } from "./use-thread-pages";

export function SharedThread({
  token,
  initialMessages,
  initialSessions,
  olderCursor,
}: {
  token: string;
  initialMessages: ChatMessage[];
  initialSessions: SharedSessionSummary[];
  olderCursor: string | null;
}) {
  const [sessions, setSessions] = useState<SessionSummary[]>(initialSessions);
  const initial = useMemo(
    () => ({
      sessions: initialSessions,
      messages: initialMessages,
      olderCursor,
      newerCursor: null,
    }),
    [initialSessions, initialMessages, olderCursor],
  );
  const anchors = useRef<ShareAnchors | null>(null);
  if (anchors.current === null) {
    anchors.current = new ShareAnchors();
    anchors.current.addSessions(initialSessions);
    anchors.current.addPage(coverageOf({}, initial), initial);
  }
  const fetchPage = useCallback<FetchPage>(
    async ({ limit, ...query }) => {
      const known = anchors.current as ShareAnchors;
      const params = known.params(query);
      if (!params) throw new Error("This part of the thread cannot be opened.");
      params.set("limit", String(limit));
      const page = await fetchPageAt<SharedThreadPage>(
        `/share/${encodeURIComponent(token)}/messages?${params}`,
      );
      known.addSessions(page.sessions);
      known.addPage(coverageOf(query, page), page);
      return page;
    },
    [token],
  );
  const pages = useThreadPages({ initial, fetchPage, onSessions: setSessions });
  const formatted = useMemo(() => {
    const ids = new Set(initialMessages.map((m) => m.id));
    const messages = [...pages.loaded.filter((m) => !ids.has(m.id)), ...initialMessages];
    const gaps = messageGaps({ sessions, messages, covered: pages.covered });
    return formatMessages(messages, sessions, { gaps });
  }, [pages.loaded, pages.covered, initialMessages, sessions]);

  return (
    <MessageList
      items={formatted.items}
      sessionStartIndex={formatted.sessionStartIndex}
      onPlaceholdersNear={pages.loadNear}
      emptyState={
        <p className="p-8 text-center text-sm text-zinc-600 dark:text-zinc-400">
          This thread has no messages yet.
        </p>
      }
    />
  );
}
