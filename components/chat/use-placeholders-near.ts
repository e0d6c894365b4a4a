"use client";
// Asks for the pages of the placeholders near the view, nearest first, whenever the rows drawn
// change (a scroll, rows loaded): a screen ahead in either direction, so rows are ready before
// they scroll in.
import type { VirtualItem } from "@tanstack/react-virtual";
import { type RefObject, useEffect } from "react";
import type { ListItem, PlaceholderItem } from "@/lib/chat/format-messages";
import { AT_END_PX } from "./use-list-scroll";

export function usePlaceholdersNear({
  items,
  virtualItems,
  scrollerRef,
  stick,
  onPlaceholdersNear,
}: {
  items: ListItem[];
  virtualItems: VirtualItem[];
  scrollerRef: RefObject<HTMLDivElement | null>;
  /** Whether the view keeps to the newest row (`useListScroll`). */
  stick: RefObject<boolean>;
  onPlaceholdersNear: ((placeholders: PlaceholderItem[]) => void) | undefined;
}) {
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
  }, [virtualItems, items, onPlaceholdersNear, scrollerRef, stick]);
}
