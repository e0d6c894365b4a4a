// The shared thread's wire shapes and, in the browser, the cursors its list has been handed.
// The list places rows and placeholders by seq like the owner's view; a shared page is opened
// with the nearest cursor at or before the wanted position plus a skip (see share-query.ts).
import type { ChatMessage, SessionSummary } from "./types";

export interface SharedSessionSummary extends SessionSummary {
  /** Opens the session's first page (`from`), or null while it has no message. */
  cursor: string | null;
}

/** What the share page renders first and what its paging API answers. */
export interface SharedThreadPage {
  thread: { title: string; createdAt: string; updatedAt: string };
  sessions: SharedSessionSummary[];
  messages: ChatMessage[];
  /** Opens the page that ends right above this one (`before`), or null at the thread's start. */
  olderCursor: string | null;
  /** For a page read forward: opens the page right below it (`from`), or null at the end. */
  newerCursor: string | null;
}

/** A seq range a page covers completely (see `coverageOf` in use-thread-pages). */
export interface CoveredRange {
  from: number;
  to: number;
}

export class ShareAnchors {
  private readonly bySeq = new Map<number, string>();

  /** Each session's cursor stands for its first seq. */
  addSessions(sessions: readonly SharedSessionSummary[]): void {
    for (const session of sessions) {
      if (session.cursor !== null && session.firstSeq !== null) {
        this.bySeq.set(session.firstSeq, session.cursor);
      }
    }
  }

  /**
   * A page's cursors, at the bounds of the range it covered: its older cursor stands for the
   * range's first seq, its newer cursor for the seq right after the range.
   */
  addPage(covered: CoveredRange, page: Pick<SharedThreadPage, "olderCursor" | "newerCursor">) {
    if (page.olderCursor !== null) this.bySeq.set(covered.from, page.olderCursor);
    if (page.newerCursor !== null && Number.isFinite(covered.to)) {
      this.bySeq.set(covered.to + 1, page.newerCursor);
    }
  }

  /**
   * The paging parameters that open a page before or from `seq`-position: the cursor at the
   * nearest known position at or before it, skipped forward the rest of the way. Null when no
   * cursor lies at or before it; an empty query is the newest page.
   */
  params(query: { beforeSeq?: number; fromSeq?: number }): URLSearchParams | null {
    const params = new URLSearchParams();
    const direction = query.beforeSeq !== undefined ? "before" : "from";
    const seq = query.beforeSeq ?? query.fromSeq;
    if (seq === undefined) return params;
    let best: number | null = null;
    for (const known of this.bySeq.keys()) {
      if (known <= seq && (best === null || known > best)) best = known;
    }
    if (best === null) return null;
    params.set(direction, this.bySeq.get(best) as string);
    if (seq > best) params.set("skip", String(seq - best));
    return params;
  }
}
