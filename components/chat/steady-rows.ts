// Keeps the rows in view where they are in the list's layout when rows change above them
// (docs/message-list.md, "Keeping the view still"): a page landing above the view, a placeholder
// standing for fewer messages, estimates learning from measured rows, or a row above the view
// measured at another height than expected. The change is taken up by the nearest placeholders
// above the view, which grow or shrink by it, so neither the rows in view nor the scroll
// position move. Only without such a placeholder does the virtualizer move the view instead.
import type { Virtualizer } from "@tanstack/react-virtual";
import type { ListItem } from "@/lib/chat/format-messages";
import type { RowHeights } from "@/lib/chat/row-heights";

type Key = string | number | bigint;

/** Where the view's top is now: the element's, which a scroll not yet reported has moved. */
export function viewTop(virtualizer: Virtualizer<HTMLDivElement, Element>): number {
  return virtualizer.scrollElement?.scrollTop ?? virtualizer.scrollOffset ?? 0;
}
type ListVirtualizer = Virtualizer<HTMLDivElement, Element>;

/** The smallest height a placeholder is left at when it takes up rows that grew. */
const MIN_PLACEHOLDER = 0;
/** How many placeholders above a row may share its change. */
const MAX_SHARERS = 4;

/** What a placeholder can give up of `want` px (or take on, when `want` is negative). */
function share(height: number, want: number): number {
  return want > 0 ? Math.min(want, Math.max(0, height - MIN_PLACEHOLDER)) : want;
}

/** How far from its old index a row is looked for before every row's key is mapped. */
const NEAR_ROWS = 4096;

/** How many rows from the view's top down are looked at for the row kept in place. */
const NEAR_ANCHOR = 64;

/**
 * Finds a row's index in `rows` by key, starting where it was (`near`): a page landing moves the
 * rows below it by about a page, so looking outward from there costs O(page), where mapping every
 * row's key would cost O(rows loaded) on each page.
 */
function indexFinder(
  rows: readonly ListItem[],
  keyOf: (item: ListItem | undefined, index: number) => Key,
): (key: Key, near: number) => number | undefined {
  let all: Map<Key, number> | null = null;
  return (key, near) => {
    for (let d = 0; d <= NEAR_ROWS; d++) {
      const after = near + d;
      if (after < rows.length && keyOf(rows[after], after) === key) return after;
      const before = near - d;
      if (d > 0 && before >= 0 && before < rows.length && keyOf(rows[before], before) === key) {
        return before;
      }
      if (after >= rows.length && before < 0) return undefined;
    }
    if (!all) {
      all = new Map();
      for (let i = 0; i < rows.length; i++) all.set(keyOf(rows[i], i), i);
    }
    return all.get(key);
  };
}

export class SteadyRows {
  /** Set while this class resizes a placeholder itself: the view must not move for it. */
  private resizing = false;
  /** Rows whose size change the placeholders above took up: the view must not move for them. */
  private readonly absorbed = new Set<Key>();
  /** Rows measured so far (the virtualizer keeps only those measured off their estimate). */
  private readonly seen = new Set<Key>();
  /** The view's top when the rows were last drawn (see `drawn`). */
  private drawnTop = Number.NaN;

  constructor(
    private readonly heights: RowHeights,
    private readonly keyOf: (item: ListItem | undefined, index: number) => Key,
  ) {}

  /**
   * Before the virtualizer lays out `next` in place of `previous` (as it last laid them out):
   * the first row from the view's top down that both lists hold keeps its start, the
   * placeholders above the view taking up whatever changed above it. That row is in view, or,
   * when the view shows only rows the new list replaces (a placeholder whose page landed), just
   * below it: those rows were in view a frame earlier, the reader scrolling up.
   */
  beforeLayout(
    virtualizer: ListVirtualizer,
    previous: readonly ListItem[],
    next: readonly ListItem[],
    top: number,
    viewHeight: number,
  ): void {
    const first = virtualizer.getVirtualItemForOffset(top);
    if (!first) return;
    const find = indexFinder(next, this.keyOf);
    const laidOut = virtualizer.measurementsCache;
    let anchor = -1;
    let oldStart = 0;
    const below = top + 2 * viewHeight;
    for (let i = first.index; i < previous.length && i < first.index + NEAR_ANCHOR; i++) {
      const row = laidOut[i];
      if (!row || row.start >= below) break;
      if (previous[i]?.kind === "placeholder" || row.end <= top) continue;
      const index = find(row.key, i);
      if (index === undefined) continue;
      anchor = index;
      oldStart = row.start;
      break;
    }
    if (anchor < 0) return;
    // Where the anchor lands from the sizes the virtualizer will use: measured, else estimated.
    const ends = new Float64Array(anchor);
    let start = virtualizer.options.paddingStart;
    for (let i = 0; i < anchor; i++) {
      start += this.sizeOf(virtualizer, next[i], i);
      ends[i] = start;
    }
    let delta = start - oldStart;
    // The virtualizer keeps the row at the view's top at its start when both lists hold it. A
    // placeholder there, above the anchor, keeps its start too: it takes up what changed between
    // it and the anchor (at its end, in view), and the placeholders above the view the rest.
    let above = anchor;
    const topIndex =
      previous[first.index]?.kind === "placeholder" ? find(first.key, first.index) : undefined;
    if (topIndex !== undefined && topIndex < anchor) {
      above = topIndex;
      const topStart = topIndex > 0 ? (ends[topIndex - 1] ?? 0) : virtualizer.options.paddingStart;
      const between = start - topStart - (oldStart - first.start);
      const height = this.sizeOf(virtualizer, next[topIndex], topIndex);
      const taken = share(height, between);
      if (Math.abs(taken) >= 0.5)
        this.resizePlaceholder(virtualizer, next, topIndex, height - taken);
      delta = topStart - first.start;
    }
    if (Math.abs(delta) < 0.5) return;
    // Only placeholders wholly above the view once the change is taken up.
    const sharers: { index: number; height: number }[] = [];
    let room = 0;
    for (let i = above - 1; i >= 0 && sharers.length < MAX_SHARERS; i--) {
      const item = next[i];
      if (item?.kind !== "placeholder" || (ends[i] ?? 0) - delta > top) continue;
      const height = this.sizeOf(virtualizer, item, i);
      sharers.push({ index: i, height });
      room += share(height, Number.POSITIVE_INFINITY);
    }
    if (sharers.length === 0 || (delta > 0 && room < delta)) return;
    for (const { index, height } of sharers) {
      const taken = share(height, delta);
      if (taken === 0) continue;
      this.resizePlaceholder(virtualizer, next, index, height - taken);
      delta -= taken;
      if (Math.abs(delta) < 0.5) break;
    }
  }

  /** Draws the placeholder at `index` of `rows` at `height` from the next layout on. */
  private resizePlaceholder(
    virtualizer: ListVirtualizer,
    rows: readonly ListItem[],
    index: number,
    height: number,
  ): void {
    const key = this.keyOf(rows[index], index);
    this.heights.setPlaceholderHeight(String(key), height);
    virtualizer.itemSizeCache.delete(key);
  }

  /**
   * A row measured at `size`: when its change would push rows already shown, the placeholders
   * above it take the change up instead, so the row grows or shrinks at its top. That is a row
   * measured for the first time above the view's top or above a row measured already (rows
   * appearing as the reader scrolls up), or one measured again wholly above the view.
   */
  measured(
    virtualizer: ListVirtualizer,
    items: readonly ListItem[],
    index: number,
    size: number,
    /** False while the view keeps to the newest row, which the virtualizer then holds. */
    steadying: boolean,
  ) {
    const item = items[index];
    const row = virtualizer.measurementsCache[index];
    if (!item || item.kind === "placeholder" || !row) return;
    const key = this.keyOf(item, index);
    const firstTime = !this.seen.has(key);
    this.seen.add(key);
    let delta = size - (virtualizer.itemSizeCache.get(key) ?? row.size);
    // Measured at its estimate, the virtualizer would keep no size for the row, and estimates
    // learning from other rows would then move it: it keeps the size it was measured at.
    if (delta === 0 && !virtualizer.itemSizeCache.has(key))
      virtualizer.itemSizeCache.set(key, size);
    if (delta === 0 || !steadying) return;
    const top = viewTop(virtualizer);
    const upward = firstTime
      ? row.start < top || this.shownBelow(virtualizer, items, index, top)
      : row.end <= top;
    if (!upward) return;
    const sharers: { index: number; height: number }[] = [];
    let room = 0;
    for (let i = index - 1; i >= 0 && sharers.length < MAX_SHARERS; i--) {
      const above = items[i];
      if (above?.kind !== "placeholder") continue;
      const height = this.sizeOf(virtualizer, above, i);
      sharers.push({ index: i, height });
      room += share(height, Number.POSITIVE_INFINITY);
    }
    if (sharers.length === 0 || (delta > 0 && room < delta)) return;
    this.absorbed.add(key);
    this.resizing = true;
    try {
      for (const sharer of sharers) {
        const taken = share(sharer.height, delta);
        if (taken === 0) continue;
        const height = sharer.height - taken;
        this.heights.setPlaceholderHeight(
          String(this.keyOf(items[sharer.index], sharer.index)),
          height,
        );
        virtualizer.resizeItem(sharer.index, height);
        delta -= taken;
        if (Math.abs(delta) < 0.5) break;
      }
    } finally {
      this.resizing = false;
    }
  }

  /**
   * Whether a row measured already follows the row at `index` in view, with only rows not
   * measured yet between them, in view or up to a viewport below it, while the view is not
   * moving down: the row is one appearing above rows the reader has seen (scrolling up, or a page
   * landing in view). Scrolling down, rows appear below those seen, and a row measured long ago
   * may lie below them.
   */
  private shownBelow(
    virtualizer: ListVirtualizer,
    items: readonly ListItem[],
    index: number,
    top: number,
  ): boolean {
    if (top > this.drawnTop + 0.5) return false;
    // The row is in view; rows seen up to a viewport below it were in view a frame earlier.
    const view = virtualizer.scrollElement?.clientHeight ?? 0;
    if ((virtualizer.measurementsCache[index]?.start ?? top + view) >= top + view) return false;
    const bottom = top + 2 * view;
    for (let i = index + 1; i < items.length; i++) {
      const item = items[i];
      const row = virtualizer.measurementsCache[i];
      if (!item || !row || item.kind === "placeholder" || row.start >= bottom) return false;
      if (this.seen.has(this.keyOf(item, i))) return true;
    }
    return false;
  }

  /** The rows are drawn, every one measured, with the view's top at `top`. */
  drawn(top: number): void {
    this.drawnTop = top;
  }

  /** Whether the row keyed `key` has been measured. */
  isMeasured(key: Key): boolean {
    return this.seen.has(key);
  }

  /** Whether the virtualizer may move the view for this row's size change (false: it must not). */
  mayAdjust(key: Key): boolean {
    if (this.resizing) return false;
    return !this.absorbed.delete(key);
  }

  private sizeOf(virtualizer: ListVirtualizer, item: ListItem | undefined, index: number): number {
    const key = this.keyOf(item, index);
    if (item?.kind === "placeholder") return this.heights.estimate(item);
    return virtualizer.itemSizeCache.get(key) ?? this.heights.estimate(item);
  }
}
