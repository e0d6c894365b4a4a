"use client";
// A shared thread, read-only: the same virtualized list, dividers, handoff cards, tool cards and
// navigator as the owner's view, paged through the share link, with the thread's files and plan;
// nothing here can change the thread (no approval, Continue or Regenerate buttons: an interrupted
// reply shows its notice alone). Pages are opened with the opaque cursors the link hands out
// (see lib/chat/share-anchors.ts).
import { useCallback, useId, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { FilesPanel } from "@/components/workspace/files-panel";
import { PlanChecklist } from "@/components/workspace/plan-checklist";
import { usePlan } from "@/components/workspace/use-plan";
import { sharedWorkspaceBase } from "@/components/workspace/workspace-api";
import { get } from "@/lib/api/client";
import { sharedThreadPageSchema } from "@/lib/api/thread-schemas";
import { PagedFormatter, withoutIds } from "@/lib/chat/paged-format";
import { ShareAnchors, type SharedSessionSummary } from "@/lib/chat/share-anchors";
import type { ChatMessage, SessionSummary } from "@/lib/chat/types";
import { MessageList } from "./message-list";
import { coverageOf, type FetchPage, useThreadPages } from "./use-thread-pages";

export function SharedThread({
  token,
  title,
  initialMessages,
  initialSessions,
  olderCursor,
}: {
  token: string;
  title: string;
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
      const page = await get(
        `/share/${encodeURIComponent(token)}/messages?${params}`,
        sharedThreadPageSchema,
        { fallback: "Couldn't load these messages." },
      );
      known.addSessions(page.sessions);
      known.addPage(coverageOf(query, page), page);
      return page;
    },
    [token],
  );
  const pages = useThreadPages({ initial, fetchPage, onSessions: setSessions });
  const [formatter] = useState(() => new PagedFormatter());
  const formatted = useMemo(() => {
    const ids = new Set(initialMessages.map((m) => m.id));
    return formatter.format({
      pages: withoutIds(pages.pages, ids),
      rest: initialMessages,
      sessions,
      covered: pages.covered,
    });
  }, [formatter, pages.pages, pages.covered, initialMessages, sessions]);

  const workspaceBase = sharedWorkspaceBase(token);
  const plan = usePlan(workspaceBase, true, null);
  const [filesOpen, setFilesOpen] = useState(false);
  const filesPanelId = useId();

  return (
    <>
      <header className="flex items-center gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
            Shared thread · read-only
          </p>
          <h1 className="truncate text-lg font-semibold">{title}</h1>
        </div>
        <Button
          variant="secondary"
          aria-expanded={filesOpen}
          aria-controls={filesPanelId}
          className={filesOpen ? "bg-zinc-100! dark:bg-zinc-800!" : ""}
          onClick={() => setFilesOpen((open) => !open)}
        >
          Files
        </Button>
      </header>
      <div className="flex min-h-0 flex-1">
        <div className="flex min-w-0 flex-1 flex-col">
          <MessageList
            items={formatted.items}
            sessionStartIndex={formatted.sessionStartIndex}
            sessionAgents={formatted.sessionAgents}
            onPlaceholdersNear={pages.loadNear}
            emptyState={
              <p className="p-8 text-center text-sm text-zinc-600 dark:text-zinc-400">
                This thread has no messages yet.
              </p>
            }
          />
          {plan.length > 0 ? (
            <div className="border-t border-zinc-200 px-3 pt-2 pb-1 dark:border-zinc-800">
              <PlanChecklist items={plan} />
            </div>
          ) : null}
        </div>
        <FilesPanel
          id={filesPanelId}
          base={workspaceBase}
          open={filesOpen}
          onClose={() => setFilesOpen(false)}
          refreshKey={0}
        />
      </div>
    </>
  );
}
