"use client";
// The message list's scrolling (docs/message-list.md): the virtualizer over the rows, keeping to
// the newest row while the reader is there and keeping the rows in view still when rows load or
// grow above them (`SteadyRows`); the session in view for the navigator and jumps to a session.
import {
  measureElement as measureRow,
  useVirtualizer,
  type Virtualizer,
} from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { ListItem } from "@/lib/chat/format-messages";
import { RowHeights } from "@/lib/chat/row-heights";
import { measureRows } from "./measure-rows";
import { SteadyRows, viewTop } from "./steady-rows";

/** How far from the bottom (px) still counts as "at the latest message". */
export const AT_END_PX = 48;
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

export function useListScroll({
  items,
  sessionStartIndex,
}: {
  items: ListItem[];
  sessionStartIndex: Record<number, number>;
}) {
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

  const jumpToLatest = useCallback(() => {
    stick.current = true;
    virtualizer.scrollToEnd();
  }, [virtualizer]);

  return {
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
  };
}
