"use client";
// The thread as one virtualized list (docs/message-list.md): messages, session dividers,
// compaction markers and placeholders for pages not loaded yet, with the session navigator above
// it. It follows a streaming reply while the reader is at the bottom, keeps the view still when
// rows load above (use-list-scroll.ts), and asks for the pages the reader scrolls toward
// (use-placeholders-near.ts).
import { type ReactNode, useMemo } from "react";
import { ExpandedHandoffsProvider } from "@/components/session/expanded-handoffs";
import { SessionDivider } from "@/components/session/session-divider";
import { SessionNavigator } from "@/components/session/session-navigator";
import type { ListItem, PlaceholderItem } from "@/lib/chat/format-messages";
import type { AgentRef, ChatMessage } from "@/lib/chat/types";
import { CompactionMarker, Placeholder } from "./list-rows";
import { type MessageActions, MessageView } from "./message-view";
import { useListScroll } from "./use-list-scroll";
import { usePlaceholdersNear } from "./use-placeholders-near";
import { useRowActions } from "./use-row-actions";

const NO_IDS: ReadonlySet<string> = new Set();

export interface MessageListProps {
  items: ListItem[];
  sessionStartIndex: Record<number, number>;
  /** Each session's agent, in a thread that names its agents (`FormattedMessages`). */
  sessionAgents?: Record<number, AgentRef>;
  /** The assistant messages being streamed (this tab's own, and replies it follows). */
  streamingIds?: ReadonlySet<string>;
  busy?: boolean;
  stoppedIds?: ReadonlySet<string>;
  failedId?: string | null;
  /** Rows the server is answering (or writing) on its own, outside this page's stream. */
  answeringIds?: ReadonlySet<string>;
  /** Why queued questions wait now, when it is not simply a reset running. */
  queuedNote?: string;
  actionsFor?: (message: ChatMessage) => MessageActions;
  /** Offered on a live reset placeholder; omitted on a read-only thread. */
  onCancelReset?: (fromSession: number) => void;
  cancellingReset?: boolean;
  /** Placeholders near the viewport, nearest first: load their pages. */
  onPlaceholdersNear?: (placeholders: PlaceholderItem[]) => void;
  emptyState?: ReactNode;
  /** Rows whose reply is streaming now: the first HTML leaves them out (they arrive live). */
  liveRowIds?: ReadonlySet<string>;
}

/** Rows the first HTML shows: enough of the newest to fill a tall window. */
const SERVER_ROWS = 12;

/** The newest rows, oldest first, without placeholders or rows being streamed. */
function lastRows(items: ListItem[], live: ReadonlySet<string>) {
  const rows: { item: ListItem; index: number }[] = [];
  for (let index = items.length - 1; index >= 0 && rows.length < SERVER_ROWS; index--) {
    const item = items[index];
    if (!item || item.kind === "placeholder") continue;
    if (item.kind === "message" && live.has(item.message.id)) continue;
    rows.push({ item, index });
  }
  return rows.reverse();
}

export function MessageList({
  items,
  sessionStartIndex,
  sessionAgents,
  streamingIds = NO_IDS,
  busy = false,
  stoppedIds = NO_IDS,
  failedId = null,
  answeringIds = NO_IDS,
  queuedNote,
  actionsFor,
  onCancelReset,
  cancellingReset = false,
  onPlaceholdersNear,
  emptyState,
  liveRowIds = NO_IDS,
}: MessageListProps) {
  const {
    scrollerRef,
    virtualizer,
    virtualItems,
    heights,
    stick,
    mounted,
    atEnd,
    onScroll,
    sessionNumbers,
    current,
    jump,
    jumpToLatest,
  } = useListScroll({ items, sessionStartIndex });
  usePlaceholdersNear({ items, virtualItems, scrollerRef, stick, onPlaceholdersNear });

  const rowActions = useRowActions(actionsFor);

  // Only the last row of a streaming message (after a split, its new session's half) animates.
  const streamingRows = useMemo(() => {
    const rows = new Set<number>();
    const seen = new Set<string>();
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i];
      if (item?.kind !== "message" || !streamingIds.has(item.message.id)) continue;
      if (!seen.has(item.message.id)) rows.add(i);
      seen.add(item.message.id);
    }
    return rows;
  }, [items, streamingIds]);

  // While a reset runs, its divider says what is happening: no reply adds "Thinking…" to it.
  const resetRunning = useMemo(
    () => items.some((item) => item.kind === "session_divider" && item.live !== undefined),
    [items],
  );

  const renderItem = (item: ListItem, index: number): ReactNode => {
    switch (item.kind) {
      case "message":
        return (
          <MessageView
            message={item.message}
            streaming={streamingRows.has(index)}
            stopped={stoppedIds.has(item.message.id)}
            failed={item.message.id === failedId}
            answering={answeringIds.has(item.message.id)}
            waitingOnReset={resetRunning}
            queuedNote={queuedNote}
            agentName={item.agent?.name}
            actions={rowActions(item.message)}
          />
        );
      case "session_divider":
        return (
          <SessionDivider item={item} onCancelReset={onCancelReset} cancelling={cancellingReset} />
        );
      case "compaction":
        return <CompactionMarker before={item.tokensBefore} after={item.tokensAfter} />;
      case "placeholder":
        return (
          <Placeholder
            height={heights.placeholderHeight(item.key, item.count)}
            rowHeight={heights.messageHeight()}
          />
        );
    }
  };

  return (
    <ExpandedHandoffsProvider>
      <div className="flex min-h-0 flex-1 flex-col">
        <SessionNavigator
          sessions={sessionNumbers}
          agents={sessionAgents}
          current={current}
          onJump={jump}
        />
        <div className="relative min-h-0 flex-1">
          <section
            ref={scrollerRef}
            onScroll={onScroll}
            aria-label="Messages"
            aria-busy={busy}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: keyboard users must be able to focus the scroller to scroll the thread.
            tabIndex={0}
            // The first HTML does not scroll (clipped, not a scroll container): a scroll made
            // before the browser's list takes over would be undone by it, and would move the rows.
            className={`h-full [overflow-anchor:none] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500${mounted ? " overflow-y-auto" : " flex flex-col-reverse overflow-clip"}`}
            data-testid="message-scroller"
          >
            {items.length === 0 ? emptyState : null}
            {mounted ? null : (
              // The first HTML: the newest rows in plain flow, and the reversed column opens the
              // scroller at its bottom before any script runs.
              <div className="py-4">
                {lastRows(items, liveRowIds).map(({ item, index }) => (
                  <div
                    key={item.key}
                    data-message-id={item.kind === "message" ? item.key : undefined}
                  >
                    <div className="mx-auto max-w-3xl">{renderItem(item, index)}</div>
                  </div>
                ))}
              </div>
            )}
            <div
              className="relative w-full"
              style={{ height: mounted ? virtualizer.getTotalSize() : 0 }}
            >
              {(mounted ? virtualItems : []).map((v) => {
                const item = items[v.index];
                if (!item) return null;
                return (
                  <div
                    key={v.key.toString()}
                    data-index={v.index}
                    data-message-id={item.kind === "message" ? item.key : undefined}
                    ref={virtualizer.measureElement}
                    className="absolute left-0 top-0 w-full"
                    style={{ transform: `translateY(${v.start}px)` }}
                  >
                    <div className="mx-auto max-w-3xl">{renderItem(item, v.index)}</div>
                  </div>
                );
              })}
            </div>
          </section>
          {!atEnd && items.length > 0 ? (
            <button
              type="button"
              className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-zinc-800 px-3 py-1 text-sm text-white shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:bg-zinc-200 dark:text-zinc-900"
              onClick={jumpToLatest}
            >
              Jump to latest
            </button>
          ) : null}
        </div>
      </div>
    </ExpandedHandoffsProvider>
  );
}
