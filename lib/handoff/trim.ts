// Shrinks a handoff until the next session's brief fits (docs/context-engine.md), by meaning:
// detail of completed work first, then free text, then unpinned facts, oldest first. Decisions,
// pins, open items and the last user request are never touched. Every item left out is returned
// as `dropped`, so the revision can say what was not carried. Null when even that is not enough.
import type { HandoffArtifact } from "./artifact";

/*
 * Trimming order (each step only when the previous ones were not enough):
 * 1. Completed work: `completed_work` items, oldest (first) first, then `last_completed_step`.
 * 2. Free text: `state_summary`, `next_step` and `goal` share one length cap, lowered until the
 *    artifact fits, so the longest field is cut first. A cut field ends with `…`. The cap stops
 *    at TEXT_TRIM_FLOOR characters; then `state_summary` and `next_step` go entirely (the goal
 *    stays at the floor).
 * 3. Unpinned facts: `confirmed_facts`, oldest first; then `files_modified`, oldest first.
 * Never trimmed: `key_decisions`, `must_preserve`, `needs_authorization`,
 * `in_progress` (which holds the last user request), `remaining_tasks`, `unknowns`.
 * `fits` must be monotonic: a smaller artifact never fits worse than a larger one.
 */
const TRIMMED_TEXT_FIELDS = [
  "state_summary",
  "next_step",
  "goal",
] as const satisfies readonly (keyof HandoffArtifact)[];
export const TEXT_TRIM_FLOOR = 120;

/** One item (or free-text field) a handoff did not carry: stored on the revision, shown on the card. */
export interface DroppedItem {
  field: keyof HandoffArtifact;
  item: string;
}

export interface TrimResult {
  artifact: HandoffArtifact;
  /** Fields changed, in the order they were first touched. */
  trimmed: (keyof HandoffArtifact)[];
  dropped: DroppedItem[];
}

const ELLIPSIS = "…";

/** Cuts to at most `max` UTF-16 units including the ellipsis, never inside a surrogate pair. */
export function truncateWithEllipsis(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - ELLIPSIS.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end).trimEnd()}${ELLIPSIS}`;
}

/** Smallest n in [lo, hi] with ok(n), assuming ok is monotonic (false up to some point); null if none. */
function smallestPassing(lo: number, hi: number, ok: (n: number) => boolean): number | null {
  if (!ok(hi)) return null;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The artifact with only what trimming never touches (and the goal at its floor). */
export function neverDroppedPart(artifact: HandoffArtifact): HandoffArtifact {
  return {
    ...artifact,
    goal: truncateWithEllipsis(artifact.goal, TEXT_TRIM_FLOOR),
    state_summary: "",
    completed_work: [],
    confirmed_facts: [],
    files_modified: [],
    last_completed_step: "",
    next_step: "",
  };
}

/** A step: `apply(n)` drops n units (0 … max) from `base`; more units never fit worse. */
interface Step {
  max: number;
  apply: (n: number) => HandoffArtifact;
  dropped: (n: number) => DroppedItem[];
}

function dropOldest(
  base: HandoffArtifact,
  field: "completed_work" | "confirmed_facts" | "files_modified",
): Step {
  const items = base[field];
  return {
    max: items.length,
    apply: (n) => ({ ...base, [field]: items.slice(n) }),
    dropped: (n) => items.slice(0, n).map((item) => ({ field, item })),
  };
}

function clearText(
  base: HandoffArtifact,
  fields: readonly ("last_completed_step" | "state_summary" | "next_step")[],
): Step {
  const present = fields.filter((f) => base[f] !== "");
  return {
    max: present.length,
    apply: (n) => {
      const next = { ...base };
      for (const f of present.slice(0, n)) next[f] = "";
      return next;
    },
    dropped: (n) => present.slice(0, n).map((field) => ({ field, item: base[field] })),
  };
}

/** Lowers one cap shared by the free-text fields, from the longest down to TEXT_TRIM_FLOOR. */
function capText(base: HandoffArtifact): Step {
  const longest = Math.max(...TRIMMED_TEXT_FIELDS.map((f) => base[f].length));
  const span = Math.max(0, longest - TEXT_TRIM_FLOOR);
  const capped = (n: number): HandoffArtifact => {
    const next = { ...base };
    for (const f of TRIMMED_TEXT_FIELDS) next[f] = truncateWithEllipsis(base[f], longest - n);
    return next;
  };
  return {
    max: span,
    apply: capped,
    dropped: (n) => {
      const next = capped(n);
      return TRIMMED_TEXT_FIELDS.filter((f) => next[f] !== base[f]).map((field) => ({
        field,
        item: base[field],
      }));
    },
  };
}

const STEPS: ((base: HandoffArtifact) => Step)[] = [
  (a) => dropOldest(a, "completed_work"),
  (a) => clearText(a, ["last_completed_step"]),
  capText,
  (a) => clearText(a, ["state_summary", "next_step"]),
  (a) => dropOldest(a, "confirmed_facts"),
  (a) => dropOldest(a, "files_modified"),
];

/**
 * Trims `artifact` until `fits`. A text field cut at one step and dropped at a later one is
 * listed once, with its full original text.
 */
export function trimArtifactToFit(
  artifact: HandoffArtifact,
  fits: (artifact: HandoffArtifact) => boolean,
): TrimResult | null {
  if (fits(artifact)) return { artifact, trimmed: [], dropped: [] };
  let current = artifact;
  const dropped: DroppedItem[] = [];
  const record = (items: DroppedItem[]) => {
    for (const d of items) {
      const isText = typeof artifact[d.field] === "string";
      if (isText && dropped.some((x) => x.field === d.field)) continue;
      dropped.push(isText ? { field: d.field, item: artifact[d.field] as string } : d);
    }
  };
  for (const make of STEPS) {
    const step = make(current);
    if (step.max === 0) continue;
    const n = smallestPassing(0, step.max, (k) => fits(step.apply(k)));
    const used = n ?? step.max;
    record(step.dropped(used));
    current = step.apply(used);
    if (n !== null) break;
  }
  if (!fits(current)) return null;
  const trimmed = [...new Set(dropped.map((d) => d.field))];
  return { artifact: current, trimmed, dropped };
}
