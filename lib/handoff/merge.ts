// Mechanical facts a model may drop from a handoff (docs/context-engine.md), merged back in, and
// the mechanical artifact used when the model's structured output is invalid twice.
import type { HandoffArtifact, RemainingTask } from "./artifact";

/*
 * The last user request goes into `in_progress` (never trimmed, unlike `next_step`) as
 * `Last user request: <verbatim text>`. That item is refreshed at every reset rather than carried:
 * the next handoff carries the newer request, so requests never pile up in `in_progress`.
 */
export const LAST_USER_REQUEST_PREFIX = "Last user request: ";

const normalize = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** True when `needle` appears in `haystack` as whole words (case and spacing ignored). */
function containsWords(haystack: string, needle: string): boolean {
  const n = normalize(needle);
  if (n === "") return false;
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(n)}(?![\\p{L}\\p{N}_])`, "u").test(
    normalize(haystack),
  );
}

/*
 * Short texts ("tests", "a") are found inside unrelated sentences, so below this length an item
 * counts as settled only when a done item says exactly the same thing. Task ids are tokens and
 * always match as whole words.
 */
const CONTAINMENT_MIN_CHARS = 12;

const mentionsText = (haystack: string, item: string) =>
  normalize(haystack) === normalize(item) ||
  (normalize(item).length >= CONTAINMENT_MIN_CHARS && containsWords(haystack, item));

const settledBy = (done: readonly string[]) => (item: string) =>
  done.some((d) => mentionsText(d, item));

/**
 * Previous items first, in their order (replaced by the current version when the key matches),
 * then current items that are new; `keep` filters only the previous-only items.
 */
function carryOver<T>(
  previous: readonly T[],
  current: readonly T[],
  key: (item: T) => string,
  keep: (item: T) => boolean = () => true,
): T[] {
  const currentByKey = new Map<string, T>();
  for (const item of current) if (!currentByKey.has(key(item))) currentByKey.set(key(item), item);
  const out: T[] = [];
  const seen = new Set<string>();
  const push = (item: T) => {
    const k = key(item);
    if (seen.has(k)) return;
    seen.add(k);
    out.push(item);
  };
  for (const item of previous) {
    const replacement = currentByKey.get(key(item));
    if (replacement !== undefined) push(replacement);
    else if (keep(item)) push(item);
  }
  for (const item of current) push(item);
  return out;
}

/** Fields trimArtifactToFit never shortens: a request found here survives into the brief. */
function untrimmedStrings(artifact: HandoffArtifact): string[] {
  return [
    ...artifact.in_progress,
    ...artifact.remaining_tasks.map((t) => t.task),
    ...artifact.unknowns,
    ...artifact.must_preserve,
    ...artifact.needs_authorization,
  ];
}

export interface MergeMechanicalFactsInput {
  artifact: HandoffArtifact;
  previous?: HandoffArtifact | null;
  filesTouched: readonly string[];
  lastUserRequest?: string;
}

/**
 * Returns a new artifact with: files touched unioned into `files_modified`; the last user request
 * present verbatim in a field trimming never touches (else added to `in_progress`); and the
 * previous open items (tasks, in-progress work, unknowns, authorizations) unless the new
 * artifact settles them. `must_preserve` is left as written: a reset sets it from the thread's
 * pins (lib/context/thread-pins.ts), which a person can also remove. A task is settled when `completed_work` mentions its id or its text; an
 * in-progress item or authorization when `completed_work` mentions it; an unknown when
 * `completed_work` or `confirmed_facts` does.
 */
export function mergeMechanicalFacts({
  artifact,
  previous,
  filesTouched,
  lastUserRequest,
}: MergeMechanicalFactsInput): HandoffArtifact {
  const done = artifact.completed_work;
  const isDone = settledBy(done);
  const prev = previous ?? null;
  const exact = (s: string) => s;

  // A previous task the model re-listed under another id is already there: carrying it would
  // list it twice.
  const keepTask = (task: RemainingTask) =>
    !done.some((d) => containsWords(d, task.id)) &&
    !isDone(task.task) &&
    !artifact.remaining_tasks.some((t) => normalize(t.task) === normalize(task.task));

  const merged: HandoffArtifact = {
    ...artifact,
    remaining_tasks: carryOver(
      prev?.remaining_tasks ?? [],
      artifact.remaining_tasks,
      (t) => t.id,
      keepTask,
    ),
    in_progress: carryOver(
      prev?.in_progress ?? [],
      artifact.in_progress,
      normalize,
      (item) => !item.startsWith(LAST_USER_REQUEST_PREFIX) && !isDone(item),
    ),
    unknowns: carryOver(
      prev?.unknowns ?? [],
      artifact.unknowns,
      normalize,
      (item) => !isDone(item) && !settledBy(artifact.confirmed_facts)(item),
    ),
    needs_authorization: carryOver(
      prev?.needs_authorization ?? [],
      artifact.needs_authorization,
      normalize,
      (item) => !isDone(item),
    ),
    files_modified: carryOver(
      artifact.files_modified,
      filesTouched.filter((f) => f !== ""),
      exact,
    ),
  };

  const request = lastUserRequest?.trim() ?? "";
  if (request !== "" && !untrimmedStrings(merged).some((s) => s.includes(request))) {
    merged.in_progress = [...merged.in_progress, `${LAST_USER_REQUEST_PREFIX}${request}`];
  }
  return merged;
}

export interface MechanicalArtifactInput {
  goal?: string;
  previous?: HandoffArtifact | null;
  userMessages: readonly string[];
  filesTouched: readonly string[];
}

const GOAL_MAX_CHARS = 200;
const SUMMARY_MESSAGES = 5;
const SUMMARY_MESSAGE_MAX_CHARS = 1_000;

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/**
 * The artifact written without the model: it keeps what the previous handoff carried (its pins
 * come from the thread's pins, set by the reset), says plainly that it is mechanical, and quotes
 * the most recent user messages.
 */
export function mechanicalArtifact({
  goal,
  previous,
  userMessages,
  filesTouched,
}: MechanicalArtifactInput): HandoffArtifact {
  const messages = userMessages.map((m) => m.trim()).filter((m) => m !== "");
  const firstMessage = messages[0]?.replace(/\s+/g, " ") ?? "";
  const recent = messages
    .slice(-SUMMARY_MESSAGES)
    .map((m) => `- ${truncate(m.replace(/\s+/g, " "), SUMMARY_MESSAGE_MAX_CHARS)}`);
  const summary = [
    "Mechanical handoff: the model did not produce a valid summary, so this one was assembled " +
      "from the previous handoff and the conversation.",
    ...(recent.length > 0 ? ["Most recent user messages:", ...recent] : []),
  ].join("\n");

  const base: HandoffArtifact = {
    goal: goal?.trim() || previous?.goal || truncate(firstMessage, GOAL_MAX_CHARS),
    state_summary: summary,
    completed_work: [...(previous?.completed_work ?? [])],
    in_progress: [],
    remaining_tasks: [],
    key_decisions: [...(previous?.key_decisions ?? [])],
    confirmed_facts: [...(previous?.confirmed_facts ?? [])],
    unknowns: [],
    must_preserve: [],
    files_modified: [],
    last_completed_step: "",
    next_step: "",
    needs_authorization: [],
  };
  return mergeMechanicalFacts({
    artifact: base,
    previous,
    filesTouched,
    lastUserRequest: messages.at(-1),
  });
}
