// Measures the rows just mounted, before the frame is drawn (see the list's layout effect).
import type { VirtualItem, Virtualizer } from "@tanstack/react-virtual";

type ListVirtualizer = Virtualizer<HTMLDivElement, Element>;

/**
 * Resizes `rows` to their measured height. Each resize of a list anchored to its end first asks
 * whether the view was at the end, which lays out again every row below the one resized: O(rows
 * loaded) per row, many times a frame while scrolling up a long thread. When the view is further
 * from the end than the rows measured could shrink, the answer is "no" for all of them, so it is
 * not asked (the list is treated as anchored to its start for these resizes only); what the
 * virtualizer does with each resize is otherwise the same.
 */
export function measureRows(
  virtualizer: ListVirtualizer,
  rows: readonly { row: VirtualItem; element: Element }[],
): void {
  if (rows.length === 0) return;
  const { options } = virtualizer;
  let shrinkable = 0;
  for (const { row } of rows) shrinkable += row.size;
  // With a viewport to spare: the virtualizer may hold part of a scroll adjustment back.
  const view = virtualizer.scrollElement?.clientHeight ?? 0;
  const top = virtualizer.scrollElement?.scrollTop ?? virtualizer.scrollOffset ?? 0;
  const fromEnd = virtualizer.getTotalSize() - view - top;
  const far =
    options.anchorTo === "end" && fromEnd - shrinkable - view > options.scrollEndThreshold;
  if (far) options.anchorTo = "start";
  try {
    for (const { row, element } of rows) {
      virtualizer.resizeItem(row.index, options.measureElement(element, undefined, virtualizer));
    }
  } finally {
    if (far) options.anchorTo = "end";
  }
}
