// What the draft editor does to a drafted handoff before the user commits it: set a text field,
// add or remove a list item, pin a confirmed fact or unpin a pin, and read the server's field
// errors back onto the fields they name. Pure, for components/session/draft-editor.tsx.
import type { HandoffArtifact } from "@/lib/handoff/artifact";

/** The free-text fields the editor offers as text areas. */
const DRAFT_TEXT_FIELDS = ["goal", "state_summary", "next_step"] as const;
type DraftTextField = (typeof DRAFT_TEXT_FIELDS)[number];

/** The string lists the editor offers, in the order the card shows them. */
const DRAFT_LIST_FIELDS = [
  "completed_work",
  "in_progress",
  "key_decisions",
  "confirmed_facts",
  "unknowns",
  "must_preserve",
  "needs_authorization",
] as const;
export type DraftListField = (typeof DRAFT_LIST_FIELDS)[number];

/** Every field the editor can name an error on (remaining tasks are `{id, task}` items). */
export type DraftField = DraftTextField | DraftListField | "remaining_tasks";

export type DraftEdit =
  | { kind: "set_text"; field: DraftTextField; value: string }
  | { kind: "add_item"; field: DraftListField; text: string }
  | { kind: "remove_item"; field: DraftListField; index: number }
  | { kind: "add_task"; task: string }
  | { kind: "remove_task"; index: number }
  /** A confirmed fact becomes a pin: carried into every later handoff until unpinned. */
  | { kind: "pin_fact"; index: number }
  /** A pin goes back to being a confirmed fact: this handoff still carries it, later ones not. */
  | { kind: "unpin"; index: number };

/** The key two items count as the same under: spacing collapsed, case ignored. */
function sameKey(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}

function withItem(items: readonly string[], text: string): string[] {
  const clean = text.trim();
  if (clean === "" || items.some((item) => sameKey(item) === sameKey(clean))) return [...items];
  return [...items, clean];
}

function without<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, i) => i !== index);
}

/** The next free `tN` id, so an added task never takes the id of one kept across handoffs. */
export function nextTaskId(tasks: HandoffArtifact["remaining_tasks"]): string {
  const taken = new Set(tasks.map((t) => t.id));
  let highest = 0;
  for (const { id } of tasks) {
    const match = /^t(\d+)$/.exec(id);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  let n = highest + 1;
  while (taken.has(`t${n}`)) n += 1;
  return `t${n}`;
}

/** The artifact after one edit; an edit that names no item (or adds nothing new) changes nothing. */
export function applyDraftEdit(artifact: HandoffArtifact, edit: DraftEdit): HandoffArtifact {
  switch (edit.kind) {
    case "set_text":
      return { ...artifact, [edit.field]: edit.value };
    case "add_item":
      return { ...artifact, [edit.field]: withItem(artifact[edit.field], edit.text) };
    case "remove_item":
      return { ...artifact, [edit.field]: without(artifact[edit.field], edit.index) };
    case "add_task": {
      const task = edit.task.trim();
      if (task === "") return artifact;
      const id = nextTaskId(artifact.remaining_tasks);
      return { ...artifact, remaining_tasks: [...artifact.remaining_tasks, { id, task }] };
    }
    case "remove_task":
      return { ...artifact, remaining_tasks: without(artifact.remaining_tasks, edit.index) };
    case "pin_fact": {
      const fact = artifact.confirmed_facts[edit.index];
      if (fact === undefined) return artifact;
      // Moved, not copied: a fact that is also pinned is carried once, as a pin.
      return {
        ...artifact,
        confirmed_facts: without(artifact.confirmed_facts, edit.index),
        must_preserve: withItem(artifact.must_preserve, fact),
      };
    }
    case "unpin": {
      const pin = artifact.must_preserve[edit.index];
      if (pin === undefined) return artifact;
      return {
        ...artifact,
        must_preserve: without(artifact.must_preserve, edit.index),
        confirmed_facts: withItem(artifact.confirmed_facts, pin),
      };
    }
  }
}

/** Errors the server gave for one field: about the field itself, and per item of a list. */
export interface DraftFieldErrors {
  messages: string[];
  items: Record<number, string[]>;
}

/**
 * The refusal's field errors (keys like `draft.goal` or `draft.completed_work.2`) grouped by the
 * editor field they belong to; keys that name no editor field are kept under `other`, so no
 * error goes unshown.
 */
export function draftFieldErrors(fields: Record<string, string[]> | undefined): {
  byField: Partial<Record<DraftField, DraftFieldErrors>>;
  other: string[];
} {
  const byField: Partial<Record<DraftField, DraftFieldErrors>> = {};
  const other: string[] = [];
  const known = new Set<string>([...DRAFT_TEXT_FIELDS, ...DRAFT_LIST_FIELDS, "remaining_tasks"]);
  for (const [key, messages] of Object.entries(fields ?? {})) {
    const path = key.split(".");
    if (path[0] === "draft") path.shift();
    const [field, index] = path;
    if (field === undefined || !known.has(field)) {
      other.push(...messages.map((m) => (key === "(body)" ? m : `${key}: ${m}`)));
      continue;
    }
    const entry = byField[field as DraftField] ?? { messages: [], items: {} };
    byField[field as DraftField] = entry;
    const at = index !== undefined && /^\d+$/.test(index) ? Number(index) : null;
    if (at === null) entry.messages.push(...messages);
    else entry.items[at] = [...(entry.items[at] ?? []), ...messages];
  }
  return { byField, other };
}
