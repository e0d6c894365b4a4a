// The message list of a long thread, formatted page by page (docs/message-list.md, "Paging and
// placeholders"): an older stored page's rows are built once and kept; each call formats only
// the newest page and the live tail, then stitches the kept pages' runs into their sessions with
// the placeholders of the ranges still unloaded. The result is the one `formatMessages` gives
// for all the messages at once; a page it cannot format on its own makes it do exactly that.
import type { ChatMessage, SessionSummary } from "@/lib/chat/types";
import { ThreadAgents } from "./format-agents";
import {
  assembleList,
  type FormattedMessages,
  formatMessages,
  type SessionRuns,
} from "./format-messages";
import { countStored, gapsFromCounts, messageGaps, rowSeqs, type SeqRange } from "./message-gaps";
import { orderMessages } from "./message-order";
import { buildSessionRows, type StoredPageRows, storedPageRows } from "./session-rows";
import { type SessionRegistry, scanResets } from "./session-scan";

export interface PagedInput {
  /** Older stored pages (as the thread API returned them), in any order. */
  pages: readonly (readonly ChatMessage[])[];
  /** The newest page and everything live: optimistic, streaming and queued messages. */
  rest: ChatMessage[];
  sessions: SessionSummary[];
  /** Seq ranges known in full (the pages' and the newest page's coverage). */
  covered: readonly SeqRange[];
  chunkSize?: number;
}

interface Kept {
  /** The sessions the rows were built against (id → number). */
  sessionsKey: string;
  rows: StoredPageRows | null;
}

/**
 * Keeps each stored page's rows between calls. `format` walks the newest page, the live tail and
 * the sessions; a kept page costs the copy of its rows into the list.
 */
export class PagedFormatter {
  private readonly kept = new WeakMap<readonly ChatMessage[], Kept>();

  format(input: PagedInput): FormattedMessages {
    const { pages, rest, sessions, covered, chunkSize } = input;
    const order = orderMessages(rest);
    const scan = scanResets(order.messages, sessions);
    const stitched = this.pageRows(pages, scan.registry);
    if (!stitched || !fitsAbove(stitched, order.messages, scan.movedTo)) {
      const all = [...pages.flat(), ...rest];
      return formatMessages(all, sessions, {
        gaps: messageGaps({ sessions, messages: all, covered }),
        chunkSize,
      });
    }

    const startAt = stitched.reduce((max, page) => Math.max(max, page.lastSession), -Infinity);
    const { bySession, rowWriters } = buildSessionRows(
      order,
      scan,
      sessions,
      stitched.length > 0 ? startAt : undefined,
    );
    const withAgents = stitched.flatMap((page) => page.withAgents);
    const agents = new ThreadAgents(
      scan.registry.byNumber,
      withAgents.length > 0 ? [...withAgents, ...order.messages] : order.messages,
      scan.agentHandoffs,
    );

    const runs = new Map<number, SessionRuns>();
    const runsOf = (number: number): SessionRuns => {
      let session = runs.get(number);
      if (!session) {
        const rows = bySession.get(number) ?? [];
        session = { before: [], rows: { rows, seqs: rowSeqs(rows), ascending: false } };
        runs.set(number, session);
      }
      return session;
    };
    for (const number of bySession.keys()) runsOf(number);
    const loaded = new Map<string, number>();
    for (const page of stitched) {
      for (const run of page.runs) runsOf(run.sessionNumber).before.push(run);
      for (const [id, count] of page.loaded) loaded.set(id, (loaded.get(id) ?? 0) + count);
    }
    countStored(order.messages, loaded);
    const gaps = gapsFromCounts({ sessions, loaded, covered });
    return assembleList(runs, { registry: scan.registry, agents, rowWriters, gaps, chunkSize });
  }

  /** The pages' rows in seq order, or null if one cannot be formatted on its own. */
  private pageRows(
    pages: readonly (readonly ChatMessage[])[],
    registry: SessionRegistry,
  ): StoredPageRows[] | null {
    const sessionsKey = [...registry.byNumber.values()].map((s) => `${s.id}:${s.number}`).join();
    const rows: StoredPageRows[] = [];
    for (const page of pages) {
      if (page.length === 0) continue;
      let kept = this.kept.get(page);
      if (kept?.sessionsKey !== sessionsKey) {
        kept = { sessionsKey, rows: storedPageRows(page, registry) };
        this.kept.set(page, kept);
      }
      if (!kept.rows) return null;
      rows.push(kept.rows);
    }
    rows.sort((a, b) => a.firstSeq - b.firstSeq);
    for (let i = 1; i < rows.length; i++) {
      if ((rows[i - 1]?.lastSeq ?? 0) >= (rows[i]?.firstSeq ?? 0)) return null;
    }
    return rows;
  }
}

/**
 * Whether the pages sit wholly above the other messages, as the full pass would put them: every
 * page seq below the others' seqs, no message in both, and none moved by a reset in the rest.
 */
function fitsAbove(
  pages: readonly StoredPageRows[],
  rest: readonly ChatMessage[],
  movedTo: ReadonlyMap<string, number>,
): boolean {
  const last = pages.at(-1);
  if (!last) return true;
  for (const message of rest) {
    const seq = message.metadata?.seq;
    if (seq !== undefined) {
      // A stored message keeps its seq: one above every page is in none of them.
      if (seq <= last.lastSeq) return false;
      continue;
    }
    for (const page of pages) if (page.ids.has(message.id)) return false;
  }
  for (const id of movedTo.keys()) {
    for (const page of pages) if (page.ids.has(id)) return false;
  }
  return true;
}

/**
 * The pages without the messages `ids` names (those the caller holds a newer copy of). A page
 * that holds none of them is returned as it is, so its kept rows are used again.
 */
export function withoutIds(
  pages: readonly (readonly ChatMessage[])[],
  ids: ReadonlySet<string>,
): (readonly ChatMessage[])[] {
  return pages.map((page) =>
    page.some((m) => ids.has(m.id)) ? page.filter((m) => !ids.has(m.id)) : page,
  );
}
