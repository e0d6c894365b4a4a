// Which fetched pages of a long thread the list keeps (docs/message-list.md, "Paging and
// placeholders"): past a bound, the pages farthest from where the reader is are let go and stand
// as placeholders again, so the rows the list lays out on each page stay bounded at any length.
import { mergeSeqRanges, type SeqRange, uncovered } from "./message-gaps";
import type { ChatMessage } from "./types";

/** Older messages the list keeps loaded at most (the newest page and live rows aside). */
const MAX_KEPT_MESSAGES = 10_000;

/**
 * A fetched page: its fresh messages (those no other page held; in seq order, never changed) and
 * the seq ranges it was the first to cover. Each seq is covered by one page at most, so letting a
 * page go uncovers exactly the messages it takes out of the list.
 */
export interface LoadedPage {
  messages: ChatMessage[];
  covers: SeqRange[];
}

function seqBounds(page: LoadedPage): { first: number; last: number } {
  const first = page.messages[0]?.metadata?.seq ?? page.covers[0]?.from ?? 0;
  const last = page.messages.at(-1)?.metadata?.seq ?? first;
  return { first, last };
}

/**
 * The pages to keep once `added` (the page just fetched, near the view) joins `pages`: while
 * they hold more than `max` messages, the page farthest from `added` by seq is let go. Its range
 * becomes a placeholder again, fetched anew when the reader comes back to it, so the list's rows
 * (and what each page costs to lay out) stay bounded however long the thread is.
 */
export function keepNear(
  pages: readonly LoadedPage[],
  added: LoadedPage,
  max: number,
): { kept: LoadedPage[]; dropped: LoadedPage[] } {
  const all = [...pages, added];
  let total = all.reduce((sum, page) => sum + page.messages.length, 0);
  if (total <= max) return { kept: all, dropped: [] };
  const near = seqBounds(added);
  const distance = (page: LoadedPage) => {
    const { first, last } = seqBounds(page);
    return Math.max(0, first - near.last, near.first - last);
  };
  const farthestFirst = pages
    .map((page) => ({ page, distance: distance(page) }))
    .sort((a, b) => b.distance - a.distance);
  const dropped = new Set<LoadedPage>();
  for (const { page } of farthestFirst) {
    if (total <= max) break;
    dropped.add(page);
    total -= page.messages.length;
  }
  return { kept: all.filter((page) => !dropped.has(page)), dropped: [...dropped] };
}

/** Where a page is read from: upward from below `beforeSeq`, or forward from `fromSeq`. */
export interface PageQuery {
  beforeSeq?: number;
  fromSeq?: number;
}

/** The seq a page query reads from: the newest seq below `beforeSeq`, or `fromSeq`. */
function queryAnchor(query: PageQuery): number {
  return query.beforeSeq !== undefined ? query.beforeSeq - 1 : (query.fromSeq ?? 0);
}

/**
 * The pages fetched beyond the newest one, which of them are kept, and which queries were asked.
 * Each query is asked once (a page that does not close its gap, counts having changed under the
 * reader, must not be fetched again and again); a page let go may be asked for again.
 */
export class KeptPages {
  private kept: LoadedPage[] = [];
  private readonly ids = new Set<string>();
  private readonly asked = new Map<string, PageQuery>();

  constructor(private readonly max = MAX_KEPT_MESSAGES) {}

  /** The first of `queries` not asked for yet, marked as asked; null when all were. */
  nextQuery(queries: readonly PageQuery[]): PageQuery | null {
    for (const query of queries) {
      const key = JSON.stringify(query);
      if (this.asked.has(key)) continue;
      this.asked.set(key, query);
      return query;
    }
    return null;
  }

  /**
   * Adds a fetched page that covers `range` (with `held` what the newest page covers), keeping
   * its messages no kept page holds, and lets go of the pages farthest from it past the bound.
   * Returns the pages now kept (a new array).
   */
  add(
    messages: readonly ChatMessage[],
    range: SeqRange,
    held: readonly SeqRange[],
  ): readonly LoadedPage[] {
    const fresh = messages
      .filter((m) => !this.ids.has(m.id))
      .sort((a, b) => (a.metadata?.seq ?? 0) - (b.metadata?.seq ?? 0));
    for (const message of fresh) this.ids.add(message.id);
    const covered = mergeSeqRanges([...held, ...this.kept.flatMap((page) => page.covers)]);
    const added = { messages: fresh, covers: uncovered(covered, range.from, range.to) };
    const { kept, dropped } = keepNear(this.kept, added, this.max);
    for (const page of dropped) this.letGo(page);
    this.kept = kept;
    return kept;
  }

  private letGo(page: LoadedPage): void {
    for (const message of page.messages) this.ids.delete(message.id);
    for (const [key, query] of this.asked) {
      const anchor = queryAnchor(query);
      if (page.covers.some((r) => anchor >= r.from && anchor <= r.to)) this.asked.delete(key);
    }
  }
}
