// Where a long thread's loaded pages leave holes (docs/message-list.md, "Paging and
// placeholders"): the unloaded seq ranges of each session, and the placeholder rows that stand
// in for them in the message list. Pure, for lib/chat/format-messages.ts and the paging hooks.
import type { ListItem, PlaceholderItem } from "./list-items";
import type { ChatMessage, SessionSummary } from "./types";

/** Unloaded messages of one session in one seq range (see `messageGaps`). */
export interface MessageGap {
  sessionNumber: number;
  /** Inclusive seq bounds of the unloaded range. */
  fromSeq: number;
  toSeq: number;
  count: number;
  /** Whether the message right after the range is loaded. */
  loadedBelow: boolean;
}

/** An inclusive range of seqs whose messages are all loaded (`to` may be Infinity). */
export interface SeqRange {
  from: number;
  to: number;
}

/** Messages one placeholder row stands for at most, unless the caller says otherwise. */
export const DEFAULT_CHUNK_SIZE = 100;

/** The seq each row sorts by: its message's, or for a compaction marker the message it precedes. */
export function rowSeqs(rows: readonly ListItem[]): number[] {
  const seqs = new Array<number>(rows.length);
  let next = Number.POSITIVE_INFINITY;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i];
    if (row?.kind === "message") next = row.message.metadata?.seq ?? next;
    seqs[i] = next;
  }
  return seqs;
}

/** Consecutive rows of one session with the seq each sorts by (see `rowSeqs`). */
export interface SeqRun {
  rows: readonly ListItem[];
  seqs: readonly number[];
  /** Seqs never decreasing (a stored page's run): gaps are placed by binary search. */
  ascending: boolean;
}

/** What a row becomes in the list (a row writer's label, say), or null to leave it out. */
export type RowMap = (row: ListItem) => ListItem | null;

/**
 * Appends a session's runs to `out` with placeholder rows for its unloaded ranges, each before
 * the first row that sorts after it. Rows of an ascending run are copied between gaps without
 * being looked at one by one, so a long loaded stretch costs its copy only.
 */
export function placeGaps(
  runs: readonly SeqRun[],
  gaps: readonly MessageGap[],
  chunkSize: number,
  out: ListItem[],
  mapFor?: (run: SeqRun) => RowMap | undefined,
): void {
  const sorted = gaps.length > 1 ? [...gaps].sort((a, b) => a.fromSeq - b.fromSeq) : gaps;
  let g = 0;
  const gapEndsBefore = (seq: number) => g < sorted.length && (sorted[g]?.toSeq ?? 0) < seq;
  const emitGap = () => {
    for (const chunk of placeholderChunks(sorted[g] as MessageGap, chunkSize)) out.push(chunk);
    g++;
  };
  for (const run of runs) {
    const { rows, seqs } = run;
    const map = mapFor?.(run);
    let i = 0;
    while (i < rows.length) {
      const seq = seqs[i] ?? Number.POSITIVE_INFINITY;
      while (gapEndsBefore(seq)) emitGap();
      // Rows up to the first that sorts after the next gap (all of them without one).
      const bound = g < sorted.length ? (sorted[g]?.toSeq ?? 0) : Number.POSITIVE_INFINITY;
      const end = run.ascending ? firstAbove(seqs, bound, i + 1) : i + 1;
      if (map) {
        for (; i < end; i++) {
          const shown = map(rows[i] as ListItem);
          if (shown) out.push(shown);
        }
      } else {
        for (; i < end; i++) out.push(rows[i] as ListItem);
      }
    }
  }
  while (g < sorted.length) emitGap();
}

/** The first index from `from` on whose seq exceeds `bound` (`seqs` ascending). */
function firstAbove(seqs: readonly number[], bound: number, from: number): number {
  let lo = from;
  let hi = seqs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((seqs[mid] ?? Number.POSITIVE_INFINITY) > bound) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * One gap as rows of at most `chunkSize` messages; the last row takes the remainder, since
 * pages load from the loaded rows below upward. Keys count from the top, so loading from below
 * keeps the keys of the rows still unloaded.
 */
function placeholderChunks(gap: MessageGap, chunkSize: number): PlaceholderItem[] {
  const n = Math.ceil(gap.count / chunkSize);
  const span = gap.toSeq - gap.fromSeq + 1;
  const chunks: PlaceholderItem[] = [];
  // Seq bounds in proportion to the counts, so a chunk's page is fetched where it stands.
  const seqAt = (messagesBefore: number) =>
    gap.fromSeq + Math.floor((messagesBefore * span) / gap.count);
  for (let j = 0; j < n; j++) {
    const count = j < n - 1 ? chunkSize : gap.count - chunkSize * (n - 1);
    const fromSeq = seqAt(j * chunkSize);
    const toSeq = Math.max(fromSeq, seqAt(j * chunkSize + count) - 1);
    chunks.push({
      kind: "placeholder",
      key: `gap:${gap.sessionNumber}:${gap.fromSeq}:${j}`,
      sessionNumber: gap.sessionNumber,
      count,
      fromSeq,
      toSeq,
      loadedBelow: j === n - 1 && gap.loadedBelow,
    });
  }
  return chunks;
}

/** Sorted, merged copy of `ranges`. */
export function mergeSeqRanges(ranges: readonly SeqRange[]): SeqRange[] {
  const sorted = [...ranges].filter((r) => r.to >= r.from).sort((a, b) => a.from - b.from);
  const merged: SeqRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.from <= last.to + 1) last.to = Math.max(last.to, range.to);
    else merged.push({ ...range });
  }
  return merged;
}

function isCovered(ranges: readonly SeqRange[], seq: number): boolean {
  return ranges.some((r) => r.from <= seq && seq <= r.to);
}

/** The parts of [from, to] that no range covers. `ranges` must be merged and sorted. */
export function uncovered(ranges: readonly SeqRange[], from: number, to: number): SeqRange[] {
  const holes: SeqRange[] = [];
  let cursor = from;
  for (const range of ranges) {
    if (range.to < cursor) continue;
    if (range.from > to) break;
    if (range.from > cursor) holes.push({ from: cursor, to: Math.min(to, range.from - 1) });
    cursor = range.to + 1;
    // A range open to the end covers everything after it.
    if (!Number.isFinite(cursor) || cursor > to) return holes;
  }
  if (cursor <= to) holes.push({ from: cursor, to });
  return holes;
}

/**
 * Where the loaded messages leave holes in the thread: per session, the seq ranges no loaded page
 * covers, with the session's unloaded message count (its `messageCount` minus the loaded messages
 * stored in it) spread over them by seq span. Exact when a session has one hole, which is the
 * case unless the reader jumped into its middle. A session's seqs run from its `firstSeq` to the
 * next session's; the messages a reset moved keep their seq and open the new session.
 */
export function messageGaps({
  sessions,
  messages,
  covered,
}: {
  sessions: readonly SessionSummary[];
  messages: readonly ChatMessage[];
  covered: readonly SeqRange[];
}): MessageGap[] {
  const loaded = new Map<string, number>();
  countStored(messages, loaded);
  return gapsFromCounts({ sessions, loaded, covered });
}

/** Adds each stored message (one with a seq) to its session id's count in `loaded`. */
export function countStored(messages: readonly ChatMessage[], loaded: Map<string, number>): void {
  for (const message of messages) {
    const id = message.metadata?.sessionId;
    if (id === undefined || message.metadata?.seq === undefined) continue;
    loaded.set(id, (loaded.get(id) ?? 0) + 1);
  }
}

/** `messageGaps` from the loaded messages' counts per session id. */
export function gapsFromCounts({
  sessions,
  loaded,
  covered,
}: {
  sessions: readonly SessionSummary[];
  loaded: ReadonlyMap<string, number>;
  covered: readonly SeqRange[];
}): MessageGap[] {
  const ranges = mergeSeqRanges(covered);
  const stored = sessions
    .filter((s) => s.firstSeq !== null && s.messageCount > 0)
    .sort((a, b) => (a.firstSeq ?? 0) - (b.firstSeq ?? 0));
  const gaps: MessageGap[] = [];
  for (const [i, session] of stored.entries()) {
    const unloaded = session.messageCount - (loaded.get(session.id) ?? 0);
    if (unloaded <= 0) continue;
    const from = session.firstSeq ?? 0;
    const nextFirst = stored[i + 1]?.firstSeq;
    // Without a later session the range is open; an unloaded tail that long has no seq bound,
    // so it is sized by its count.
    const to = nextFirst != null ? nextFirst - 1 : Number.POSITIVE_INFINITY;
    const holes = uncovered(ranges, from, to).map((hole) =>
      Number.isFinite(hole.to) ? hole : { from: hole.from, to: hole.from + unloaded - 1 },
    );
    const span = holes.reduce((sum, hole) => sum + hole.to - hole.from + 1, 0);
    if (span <= 0) continue;
    let left = Math.min(unloaded, span);
    for (const [h, hole] of holes.entries()) {
      const size = hole.to - hole.from + 1;
      const share =
        h === holes.length - 1 ? left : Math.min(left, Math.round((unloaded * size) / span));
      const count = Math.min(share, size);
      left -= count;
      if (count <= 0) continue;
      gaps.push({
        sessionNumber: session.number,
        fromSeq: hole.from,
        toSeq: hole.to,
        count,
        loadedBelow: isCovered(ranges, hole.to + 1),
      });
    }
  }
  return gaps;
}
