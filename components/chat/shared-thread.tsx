"use client";
// A shared thread, read-only: the same virtualized list, dividers, handoff cards and navigator
// as the owner's view, paged through the share link; nothing here can change the thread.
import { useCallback, useMemo, useState } from "react";
import { formatMessages, messageGaps } from "@/lib/chat/format-messages";
import type { ChatMessage, SessionSummary } from "@/lib/chat/types";
import { MessageList } from "./message-list";
import { type FetchPage, fetchThreadPage, useThreadPages } from "./use-thread-pages";

export function SharedThread({
  token,
  initialMessages,
  initialSessions,
  olderCursor,
}: {
  token: string;
  initialMessages: ChatMessage[];
  initialSessions: SessionSummary[];
  olderCursor: number | null;
}) {
  const [sessions, setSessions] = useState(initialSessions);
  const fetchPage = useCallback<FetchPage>(
    (query) => fetchThreadPage(`/share/${encodeURIComponent(token)}/messages`, query),
    [token],
  );
  const initial = useMemo(
    () => ({
      sessions: initialSessions,
      messages: initialMessages,
      olderCursor,
      newerCursor: null,
    }),
    [initialSessions, initialMessages, olderCursor],
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
