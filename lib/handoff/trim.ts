// Shrinks a handoff until the next session's brief fits (docs/context-engine.md): free text
// first, then history; `must_preserve` and open items are never touched. Null when even that is
// not enough.
import type { HandoffArtifact } from "./artifact";

/*
 * Trimming order:
 * 1. Free text, longest first: `state_summary`, `last_completed_step`, `next_step` and `goal`
 *    share one length cap, lowered until the artifact fits, so the longest field is cut first
 *    and the others only once they are the longest. A cut field ends with `…`. The cap stops at
 *    TEXT_TRIM_FLOOR characters, which keeps the gist of each field.
 * 2. Whole items, oldest (first) first: `completed_work`, then `key_decisions`, then
 *    `confirmed_facts`; a list is emptied before the next one is touched.
 * Never trimmed: `must_preserve`, `remaining_tasks`, `in_progress`, `unknowns`,
 * `needs_authorization` (pinned and open items), nor `files_modified` (a mechanical fact).
 * `fits` must be monotonic: a smaller artifact never fits worse than a larger one.
 */
export const TRIMMED_TEXT_FIELDS = [
  "state_summary",
  "last_completed_step",
  "next_step",
  "goal",
] as const satisfies readonly (keyof HandoffArtifact)[];
export const TRIMMED_LIST_FIELDS = [
  "completed_work",
  "key_decisions",
  "confirmed_facts",
] as const satisfies readonly (keyof HandoffArtifact)[];
export const TEXT_TRIM_FLOOR = 120;

const ELLIPSIS = "…";

/** Cuts to at most `max` UTF-16 units including the ellipsis, never inside a surrogate pair. */
export function truncateWithEllipsis(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - ELLIPSIS.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end).trimEnd()}${ELLIPSIS}`;
}

/** Largest n in [lo, hi] with ok(n), assuming ok is monotonic (true up to some point); lo if none. */
function largestPassing(lo: number, hi: number, ok: (n: number) => boolean): number {
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ok(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function trimArtifactToFit(
  artifact: HandoffArtifact,
  fits: (artifact: HandoffArtifact) => boolean,
): { artifact: HandoffArtifact; trimmed: string[] } | null {
  if (fits(artifact)) return { artifact, trimmed: [] };

  const capText = (cap: number): HandoffArtifact => {
    const next = { ...artifact };
    for (const field of TRIMMED_TEXT_FIELDS)
      next[field] = truncateWithEllipsis(artifact[field], cap);
    return next;
  };
  const longest = Math.max(...TRIMMED_TEXT_FIELDS.map((f) => artifact[f].length));
  let current = artifact;
  let currentFits = false;
  if (longest > TEXT_TRIM_FLOOR) {
    current = capText(TEXT_TRIM_FLOOR);
    currentFits = fits(current);
    if (currentFits) {
      // The uncapped artifact does not fit, so the best cap lies strictly below the longest field.
      const cap = largestPassing(TEXT_TRIM_FLOOR, longest - 1, (c) => fits(capText(c)));
      if (cap > TEXT_TRIM_FLOOR) current = capText(cap);
    }
  }
  const trimmed: string[] = TRIMMED_TEXT_FIELDS.filter((f) => current[f] !== artifact[f]);
  if (currentFits) return { artifact: current, trimmed };

  for (const field of TRIMMED_LIST_FIELDS) {
    const items = current[field];
    if (items.length === 0) continue;
    const base = current;
    const dropOldest = (n: number): HandoffArtifact => ({ ...base, [field]: items.slice(n) });
    // Keeping k newest items: find the largest k that fits (k = 0 may still not fit).
    const keep = largestPassing(0, items.length - 1, (k) => fits(dropOldest(items.length - k)));
    current = dropOldest(items.length - keep);
    trimmed.push(field);
    if (fits(current)) return { artifact: current, trimmed };
  }
  return null;
}
