"use client";
// The thread as one virtualized list (docs/message-list.md): messages, session dividers,
// compaction markers and placeholders for pages not loaded yet, with the session navigator above
// it. It follows a streaming reply while the reader is at the bottom, keeps the view still when
// rows load above, and asks for the pages the reader scrolls toward.
import {
  measureElement as measureRow,
  useVirtualizer,
  type Virtualizer,
} from "@tanstack/react-virtual";
import {
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { ExpandedHandoffsProvider } from "@/components/session/expanded-handoffs";
import { SessionDivider } from "@/components/session/session-divider";
import { SessionNavigator } from "@/components/session/session-navigator";
import type { ListItem, PlaceholderItem } from "@/lib/chat/format-messages";
import { RowHeights } from "@/lib/chat/row-heights";
import type { AgentRef, ChatMessage } from "@/lib/chat/types";
import { CompactionMarker, Placeholder } from "./list-rows";
import { measureRows } from "./measure-rows";
import { type MessageActions, MessageView } from "./message-view";
import { SteadyRows, viewTop } from "./steady-rows";
import { useRowActions } from "./use-row-actions";

/** How far from the bottom (px) still counts as "at the latest message". */
const AT_END_PX = 48;
const JUMP_SETTLE_MS = 1000;
/**
 * A list of up to this many rows is drawn whole: mounting them costs little once, and every
 * message is then in the page (the browser's find sees it). A longer list draws the rows in view
 * and one more on each side, since every row drawn costs the scroll frame that brings it in.
 */
const DRAWN_WHOLE = 40;

/** The virtualizer's key: a placeholder standing for other messages is another row. */
function rowKey(item: ListItem | undefined, index: number): string | number {
  if (!item) return index;
  return item.kind === "placeholder" ? `${item.key}:${item.count}` : item.key;
}

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
  const scrollerRef = useRef<HTMLDivElement>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const [heights] = useState(() => new RowHeights());
  const [steady] = useState(() => new SteadyRows(heights, rowKey));
  // Estimates learn from the rows measured so far only when rows are added or removed: the
  // virtualizer then keeps the row at the top of the view in place, so nothing visible moves.
  // Whether the view keeps to the newest row (see `readPosition`).
  const stick = useRef(true);
  const lastTop = useRef(0);
  const settledCount = useRef(-1);
  const previous = useRef<Virtualizer<HTMLDivElement, Element> | null>(null);
  const laidOut = useRef(items);
  // The reader scrolling up lets go of the newest row at once, before their scroll is reported:
  // rows measured meanwhile must not be held to the end.
  const releaseIfScrolledUp = () => {
    const el = scrollerRef.current;
    if (!el || !stick.current || el.scrollTop >= lastTop.current - 1) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight >= AT_END_PX) stick.current = false;
  };
  releaseIfScrolledUp();
  if (settledCount.current !== items.length) {
    settledCount.current = items.length;
    heights.settle();
    // The virtualizer keeps the row at the top of the view in place from the offset it last
    // read; a scroll since (the reader's, not yet reported by its event) must not be undone.
    // (Not while keeping to the end: a scroll the virtualizer wrote itself may be pending.)
    const el = scrollerRef.current;
    const last = previous.current;
    if (el && last && last.scrollOffset !== null && !stick.current) {
      last.scrollOffset = el.scrollTop;
    }
  }
  if (laidOut.current !== items) {
    // Rows changed above the view: placeholders above it take the change up (`SteadyRows`).
    const el = scrollerRef.current;
    const last = previous.current;
    if (el && last && last.scrollOffset !== null && !stick.current) {
      steady.beforeLayout(last, laidOut.current, items, el.scrollTop, el.clientHeight);
    }
    laidOut.current = items;
  }

  // One key function per rows array: the virtualizer lays every row out again from the first
  // whenever it changes, which on each render (each scroll frame) would cost O(rows loaded).
  const getItemKey = useCallback((index: number) => rowKey(items[index], index), [items]);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollerRef.current,
    // The rows of this render, not the ref: the virtualizer reads its previous options' layout
    // when the rows change, which must be the previous rows'.
    estimateSize: (index) => heights.estimate(items[index]),
    getItemKey,
    measureElement: (element, entry, instance) => {
      const index = instance.indexFromElement(element);
      const item = items[index];
      // A placeholder is as high as it is drawn (`SteadyRows` may resize it), not as measured.
      if (item?.kind === "placeholder") return heights.estimate(item);
      const size = measureRow(element, entry, instance);
      heights.measured(String(rowKey(item, index)), item, size);
      releaseIfScrolledUp();
      steady.measured(instance, items, index, size, !stick.current);
      return size;
    },
    overscan: items.length <= DRAWN_WHOLE ? DRAWN_WHOLE : 1,
    paddingStart: 16,
    paddingEnd: 16,
    // A chat list: rows added or loaded above keep the view where it is, rows appended while
    // the reader is at the bottom (and a reply growing there) are followed.
    anchorTo: "end",
    followOnAppend: true,
    scrollEndThreshold: 4,
  });

  previous.current = virtualizer;

  // A row measured for the first time moves the view by its change when it starts above the
  // view's top; a row measured again, only when it lies wholly above it (a reply growing at the
  // top of the view grows below what the reader sees). Scrolling up is no exception: rows loaded
  // above must not push the rows in view.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) => {
    if (!steady.mayAdjust(item.key)) return false;
    const top = viewTop(instance);
    return instance.itemSizeCache.has(item.key) ? item.end <= top : item.start < top;
  };

  const sessionNumbers = useMemo(
    () =>
      Object.keys(sessionStartIndex)
        .map(Number)
        .sort((a, b) => a - b),
    [sessionStartIndex],
  );
  const lastSession = sessionNumbers.at(-1) ?? 1;
  const [current, setCurrent] = useState(lastSession);
  const [atEnd, setAtEnd] = useState(true);

  // After a jump the chosen session stays current while the scroll it started settles (a short
  // session's next divider may sit in the upper part of the view).
  const jumpedAt = useRef(0);

  // `stick`: whether the view keeps to the newest row. The virtualizer follows rows appended at
  // the end and a reply growing there, but not rows inserted above the end (a session divider, a
  // queued message) or the view shrinking (the navigator appearing): those are handled here.
  // It lets go when the reader scrolls up, and holds again once they are back at the bottom.
  const readPosition = useCallback(() => {
    const el = scrollerRef.current;
    if (!el) return;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    if (distance < AT_END_PX) stick.current = true;
    else if (el.scrollTop < lastTop.current) stick.current = false;
    lastTop.current = el.scrollTop;
    setAtEnd(distance < AT_END_PX);
    const list = itemsRef.current;
    if (list.length === 0 || performance.now() - jumpedAt.current < JUMP_SETTLE_MS) return;
    if (distance < AT_END_PX) {
      // The newest session, not a reset still running below it.
      const last = list.findLast((item) => item.kind !== "session_divider" || !item.live);
      setCurrent(last?.sessionNumber ?? 1);
      return;
    }
    // The session of the row a third of the way down the view, where a reader's eye rests.
    const row = virtualizer.getVirtualItemForOffset(el.scrollTop + el.clientHeight / 3);
    const item = row ? list[row.index] : undefined;
    if (item) setCurrent(item.sessionNumber);
  }, [virtualizer]);

  const frame = useRef<number | null>(null);
  const onScroll = useCallback(() => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      readPosition();
    });
  }, [readPosition]);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  // Open at the newest message, and keep to it while the reader is there.
  const totalSize = virtualizer.getTotalSize();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when rows or their sizes change.
  useLayoutEffect(() => {
    const el = scrollerRef.current;
    if (!el || items.length === 0 || !stick.current) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight > 1) virtualizer.scrollToEnd();
  }, [items, totalSize, virtualizer]);

  useEffect(() => {
    const el = scrollerRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() => {
      if (stick.current && itemsRef.current.length > 0) virtualizer.scrollToEnd();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [virtualizer]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-read whenever the rows change.
  useEffect(() => {
    readPosition();
  }, [items, readPosition]);

  const virtualItems = virtualizer.getVirtualItems();
  // Rows mounted while the reader scrolls are measured before the frame is drawn (the virtualizer
  // would leave them to its ResizeObserver, after the frame): a row shown at its estimate and
  // corrected a frame later would move the rows around it (`SteadyRows.measured`).
  useLayoutEffect(() => {
    const fresh: { row: (typeof virtualItems)[number]; element: Element }[] = [];
    for (const v of virtualItems) {
      const element = virtualizer.elementsCache.get(v.key);
      if (!element?.isConnected || steady.isMeasured(v.key)) continue;
      if (itemsRef.current[v.index]?.kind === "placeholder") continue;
      fresh.push({ row: v, element });
    }
    measureRows(virtualizer, fresh);
    steady.drawn(viewTop(virtualizer));
  });
  // Rendered on the server and at hydration as its newest rows (`lastRows`); virtualized from
  // the first layout in the browser on.
  const [mounted, setMounted] = useState(false);
  useLayoutEffect(() => setMounted(true), []);

  useEffect(() => {
    if (!onPlaceholdersNear) return;
    const el = scrollerRef.current;
    if (!el) return;
    const top = el.scrollTop;
    const height = el.clientHeight;
    // Opening (or following) the newest row and not there yet: the rows passed on the way are
    // not ones the reader asked for.
    if (stick.current && el.scrollHeight - top - height > AT_END_PX) return;
    const center = top + height / 2;
    const near: { item: PlaceholderItem; distance: number }[] = [];
    for (const v of virtualItems) {
      const item = items[v.index];
      if (item?.kind !== "placeholder") continue;
      // Load a screen ahead in either direction so rows are ready before they scroll in.
      if (v.end < top - height || v.start > top + 2 * height) continue;
      const distance = v.end < center ? center - v.end : v.start > center ? v.start - center : 0;
      near.push({ item, distance });
    }
    if (near.length === 0) return;
    near.sort((a, b) => a.distance - b.distance);
    onPlaceholdersNear(near.map((n) => n.item));
  }, [virtualItems, items, onPlaceholdersNear]);

  const jump = useCallback(
    (sessionNumber: number) => {
      const index = sessionStartIndex[sessionNumber];
      if (index === undefined) return;
      jumpedAt.current = performance.now();
      stick.current = false;
      virtualizer.scrollToIndex(index, { align: "start" });
      setCurrent(sessionNumber);
    },
    [sessionStartIndex, virtualizer],
  );

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
              onClick={() => {
                stick.current = true;
                virtualizer.scrollToEnd();
              }}
            >
              Jump to latest
            </button>
          ) : null}
        </div>
      </div>
    </ExpandedHandoffsProvider>
  );
}
