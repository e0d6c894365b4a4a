// Baton's explicit markers: sentences a user starts with `decide`, `note`, `todo`, `remember` or
// `done` say what a handoff must record, so a reset can merge them without asking a model
// (docs/context-engine.md, "Drafting ahead"). Pure.
import type { HandoffArtifact, RemainingTask } from "./artifact";

export type MarkerKind = "decide" | "note" | "todo" | "remember" | "done";

export interface ExplicitMarker {
  kind: MarkerKind;
  text: string;
}

/*
 * The marker words (the offline demo model, lib/demo-model/knowledge.ts, reads them too). A marker
 * starts a line or a sentence and its word is followed by `:` or a space and a non-empty
 * argument, so "I'm done." or "we decided" stay plain text. The argument runs to the end of its
 * sentence.
 */
const MARKER = /^(decide|decision|note|todo|remember|done)\b[:\t ][\t ]*(\S.*)$/i;
const SENTENCE_BREAK = /(?<=[.!?])\s+/;
const TRAILING_PUNCTUATION = /[\s.,;:!?]+$/;
/** A todo's id (`t3`) at the start of a done-work item or a `done` argument. */
export const TASK_ID = /^(t\d+)\b[\s:.-]*/i;
// Artifact strings are capped at 20,000 characters by the schema; stay well inside it.
const MAX_ITEM_CHARS = 4_000;

const KIND_OF: Record<string, MarkerKind> = {
  decide: "decide",
  decision: "decide",
  note: "note",
  todo: "todo",
  remember: "remember",
  done: "done",
};

const normalize = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

function cleanArgument(raw: string): string {
  const text = raw.replace(TRAILING_PUNCTUATION, "").trim();
  // "remember that the code is 4242" records "the code is 4242", as the offline model does.
  const bare = text.replace(/^that\s+/i, "");
  return bare.length <= MAX_ITEM_CHARS ? bare : `${bare.slice(0, MAX_ITEM_CHARS - 1)}…`;
}

export interface LocatedMarker extends ExplicitMarker {
  /** Where the marker's word starts in the text. */
  index: number;
}

/** Every marker in `text` with where it starts, in order (see parseExplicitMarkers). */
export function findExplicitMarkers(text: string): LocatedMarker[] {
  const markers: LocatedMarker[] = [];
  let lineStart = 0;
  for (const line of text.split(/\r?\n/)) {
    let cursor = 0;
    for (const sentence of line.trim().split(SENTENCE_BREAK)) {
      cursor = line.indexOf(sentence, cursor);
      const match = MARKER.exec(sentence.trim());
      const kind = match?.[1] ? KIND_OF[match[1].toLowerCase()] : undefined;
      const argument = cleanArgument(match?.[2] ?? "");
      if (kind && argument) markers.push({ kind, text: argument, index: lineStart + cursor });
      cursor += sentence.length;
    }
    lineStart += line.length + (text[lineStart + line.length] === "\r" ? 2 : 1);
  }
  return markers;
}

/** Every marker in `text`, in order: one per line or sentence that starts with a marker word. */
export function parseExplicitMarkers(text: string): ExplicitMarker[] {
  return findExplicitMarkers(text).map(({ kind, text }) => ({ kind, text }));
}

/** `list` with `item` added at the end, unless it holds it already (case and spacing ignored). */
export function pushUnique(list: readonly string[], item: string): string[] {
  return list.some((existing) => normalize(existing) === normalize(item))
    ? [...list]
    : [...list, item];
}

/** t(N+1) past every task id and task count the artifact shows (the offline model's numbering). */
function nextTaskId(artifact: HandoffArtifact): string {
  let highest = artifact.remaining_tasks.length;
  const ids = [
    ...artifact.remaining_tasks.map((t) => t.id),
    ...artifact.completed_work.map((w) => TASK_ID.exec(w)?.[1] ?? ""),
  ];
  for (const id of ids) {
    const n = /^t(\d+)$/i.exec(id)?.[1];
    if (n !== undefined) highest = Math.max(highest, Number(n));
  }
  return `t${highest + 1}`;
}

/** A `done` marker closes the open task it names (by id, else by its text), or records the work. */
function closeTask(artifact: HandoffArtifact, argument: string): HandoffArtifact {
  const byId = TASK_ID.exec(argument)?.[1]?.toLowerCase();
  const open: RemainingTask | undefined = byId
    ? artifact.remaining_tasks.find((t) => t.id.toLowerCase() === byId)
    : artifact.remaining_tasks.find((t) => normalize(t.task) === normalize(argument));
  if (!open) {
    // An id that names no open task says nothing about what was done.
    if (byId) return artifact;
    return { ...artifact, completed_work: pushUnique(artifact.completed_work, argument) };
  }
  return {
    ...artifact,
    remaining_tasks: artifact.remaining_tasks.filter((t) => t !== open),
    completed_work: pushUnique(artifact.completed_work, `${open.id}: ${open.task}`),
  };
}

/**
 * The artifact with the markers applied, in order: `decide`/`decision` → key_decisions, `note` →
 * confirmed_facts, `remember` → must_preserve, `todo` → remaining_tasks (a new id), `done` closes
 * a task. An item the artifact already holds (case and spacing ignored) is not added again.
 */
export function applyExplicitMarkers(
  artifact: HandoffArtifact,
  markers: readonly ExplicitMarker[],
): HandoffArtifact {
  let out = artifact;
  for (const { kind, text } of markers) {
    switch (kind) {
      case "decide":
        out = { ...out, key_decisions: pushUnique(out.key_decisions, text) };
        break;
      case "note":
        if (out.must_preserve.some((p) => normalize(p) === normalize(text))) break;
        out = { ...out, confirmed_facts: pushUnique(out.confirmed_facts, text) };
        break;
      case "remember":
        out = {
          ...out,
          must_preserve: pushUnique(out.must_preserve, text),
          // A pinned fact is carried once, as a pin.
          confirmed_facts: out.confirmed_facts.filter((f) => normalize(f) !== normalize(text)),
        };
        break;
      case "todo":
        if (out.remaining_tasks.some((t) => normalize(t.task) === normalize(text))) break;
        out = {
          ...out,
          remaining_tasks: [...out.remaining_tasks, { id: nextTaskId(out), task: text }],
        };
        break;
      case "done":
        out = closeTask(out, text);
        break;
    }
  }
  return out;
}
