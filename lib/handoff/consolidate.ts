// Consolidation of a handoff before it is bounded (docs/context-engine.md): whatever the chain
// length, the brief is rewritten rather than nested. The goal is one concise statement, older
// completed work folds into one line, and duplicate items merge. Pure.
import { ARTIFACT_LIST_FIELDS, type HandoffArtifact } from "./artifact";
import { type DroppedItem, truncateWithEllipsis } from "./trim";

const GOAL_MAX_CHARS = 200;
const SUMMARY_MAX_CHARS = 600;
/** Completed items kept in detail; older ones fold into one line. */
const COMPLETED_DETAIL = 3;
const FOLD_MAX_CHARS = 400;
/** The folded line: `Done earlier (N): a; b; c`. Read back when the next reset folds again. */
const FOLD_PREFIX = "Done earlier (";
const FOLD_LINE = /^Done earlier \((\d+)\): ([\s\S]*)$/;
const FOLD_SEPARATOR = "; ";

const normalize = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

/** The goal as one statement: its first line, then its first sentence, at most GOAL_MAX_CHARS. */
function conciseGoal(goal: string): string {
  const line =
    goal
      .split(/\r?\n/)
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  const sentence = /^(.+?[.!?])(?=\s|$)/.exec(line)?.[1] ?? line;
  return truncateWithEllipsis(sentence.replace(/\s+/g, " "), GOAL_MAX_CHARS);
}

function dedupe(items: readonly string[], also: ReadonlySet<string> = new Set()): string[] {
  const seen = new Set(also);
  const out: string[] = [];
  for (const item of items) {
    const key = normalize(item);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

/**
 * Folds all but the newest COMPLETED_DETAIL items (and any earlier fold line) into one line.
 * The line keeps the newest folded items that fit FOLD_MAX_CHARS; the others are dropped.
 */
function foldCompleted(items: readonly string[]): { items: string[]; dropped: string[] } {
  let count = 0;
  const earlier: string[] = [];
  const detail: string[] = [];
  for (const item of items) {
    const fold = FOLD_LINE.exec(item);
    if (fold) {
      count += Number(fold[1]);
      earlier.push(...(fold[2] ?? "").split(FOLD_SEPARATOR).filter((s) => s !== "" && s !== "…"));
    } else detail.push(item);
  }
  const older = detail.slice(0, Math.max(0, detail.length - COMPLETED_DETAIL));
  const newest = detail.slice(older.length);
  if (older.length === 0 && count === 0) return { items: newest, dropped: [] };
  count += older.length;
  const folded = [...earlier, ...older];
  // Keep the newest folded items that fit; the line says how many there were in all.
  const head = `${FOLD_PREFIX}${count}): `;
  const kept: string[] = [];
  let length = head.length;
  for (let i = folded.length - 1; i >= 0; i--) {
    const item = folded[i] ?? "";
    const extra = item.length + (kept.length > 0 ? FOLD_SEPARATOR.length : 0);
    if (length + extra > FOLD_MAX_CHARS) break;
    kept.unshift(item);
    length += extra;
  }
  const cut = folded.slice(0, folded.length - kept.length);
  const body = [...(cut.length > 0 ? ["…"] : []), ...kept].join(FOLD_SEPARATOR);
  // Items folded in by an earlier reset were reported when they were cut there.
  const dropped = cut.filter((item) => older.includes(item));
  return { items: [`${head}${body}`, ...newest], dropped };
}

/** The consolidated artifact and what consolidation left out (folded away or cut). */
export function consolidateArtifact(artifact: HandoffArtifact): {
  artifact: HandoffArtifact;
  dropped: DroppedItem[];
} {
  const dropped: DroppedItem[] = [];
  const next: HandoffArtifact = { ...artifact, goal: conciseGoal(artifact.goal) };
  if (next.goal !== artifact.goal.trim()) dropped.push({ field: "goal", item: artifact.goal });
  for (const field of ARTIFACT_LIST_FIELDS) next[field] = dedupe(artifact[field]);
  // A pinned fact is carried once, as a pin.
  next.confirmed_facts = dedupe(
    artifact.confirmed_facts,
    new Set(next.must_preserve.map(normalize)),
  );
  const seenTasks = new Set<string>();
  next.remaining_tasks = artifact.remaining_tasks.filter((t) => {
    const key = `${t.id}\u0000${normalize(t.task)}`;
    if (seenTasks.has(key)) return false;
    seenTasks.add(key);
    return true;
  });
  const folded = foldCompleted(next.completed_work);
  next.completed_work = folded.items;
  for (const item of folded.dropped) dropped.push({ field: "completed_work", item });
  if (artifact.state_summary.length > SUMMARY_MAX_CHARS) {
    next.state_summary = truncateWithEllipsis(artifact.state_summary, SUMMARY_MAX_CHARS);
    dropped.push({ field: "state_summary", item: artifact.state_summary });
  }
  return { artifact: next, dropped };
}
