// What the offline model knows: a pure fold over the prompt (user commands, carried-over handoff
// briefs, another agent's handoff brief, its own compaction summaries). The texts it writes from
// that: ./replies.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { emptyArtifact, type HandoffArtifact, type RemainingTask } from "@/lib/handoff/artifact";
import {
  CARRIED_OVER_CLOSE_TAG,
  CARRIED_OVER_OPEN_TAG,
  extractCarriedOverBlock,
} from "@/lib/handoff/brief";
import {
  applyExplicitMarkers,
  type ExplicitMarker,
  findExplicitMarkers,
  type MarkerKind,
  pushUnique,
  TASK_ID,
} from "@/lib/handoff/explicit-markers";
import { parseHandoffMarkdown } from "@/lib/handoff/markdown";
import { readAgentBrief } from "./agent-brief";
import { findToolCommand } from "./tool-commands";
import { CONTINUE_INSTRUCTION, messageText } from "./transcript";

export interface DoneTask {
  /** Absent for work done outside a `todo` (a brief's completed_work, `done <free text>`). */
  id?: string;
  task: string;
}

export interface OfflineKnowledge {
  /** The carried-over handoff in the prompt; null when there is none. */
  carried: HandoffArtifact | null;
  /** Pinned facts: `remember`, an agent brief's Must Preserve, facts read back from a summary. */
  facts: string[];
  /** Unpinned facts: `note`. */
  noted: string[];
  decisions: string[];
  openTasks: RemainingTask[];
  doneTasks: DoneTask[];
  /** User messages that were not commands, oldest first. */
  notes: string[];
  firstUserText: string | undefined;
}

type OfflineEvent =
  | { kind: "remember"; fact: string; known: boolean }
  | { kind: "noted"; fact: string; known: boolean }
  | { kind: "decide"; decision: string; known: boolean }
  | { kind: "todo"; task: RemainingTask; known: boolean }
  | { kind: "done"; outcome: "closed" | "already_done" | "free_text"; task: DoneTask }
  | { kind: "done"; outcome: "unknown_id"; id: string }
  /** A message with more than one marker: what each did, in order. */
  | { kind: "markers"; events: OfflineEvent[] }
  | { kind: "query" }
  | { kind: "handoff"; agentId: string }
  | { kind: "note"; text: string }
  | { kind: "no_text" };

const NO_TEXT: OfflineEvent = { kind: "no_text" };

/** In a system (or user) message, asks for a compaction summary instead of a reply. */
export const OFFLINE_COMPACT_MARKER = "[[baton:compact]]";

/** First line of a compaction summary; the model reads its own summaries back by it. */
export const OFFLINE_SUMMARY_HEADING = "Summary of earlier messages (offline demo model):";

export const SUMMARY_SECTION = {
  facts: "Facts:",
  noted: "Noted facts:",
  decisions: "Decisions:",
  open: "Open tasks:",
  done: "Done tasks:",
} as const;

/*
 * Commands are the explicit markers (remember, note, decide, todo, done at the start of a line or
 * sentence; lib/handoff/explicit-markers.ts), read by the one parser the handoff's mechanical
 * merge uses, so both record the same; plus the question "what do you know", anywhere.
 */
const QUERY = /\bwhat do you know\b/i;
// Tag-like text inside a block is escaped by renderCarriedOverBlock, so the lazy match ends at
// the block's own closing tag.
const BRIEF_BLOCK = new RegExp(
  `${CARRIED_OVER_OPEN_TAG}(?:\\s[^>]*)?>[\\s\\S]*?${CARRIED_OVER_CLOSE_TAG}`,
  "g",
);

// Artifact strings are capped at 20,000 characters by the schema; stay well inside it.
export const MAX_ITEM_CHARS = 4_000;
export const MAX_SUMMARY_CHARS = 2_000;

type Command = { kind: MarkerKind; argument: string } | { kind: "query" };

/** The earliest command of `text`: its first marker, or the question, whichever comes first. */
export function parseCommand(text: string): (Command & { index: number }) | null {
  const [marker] = findExplicitMarkers(text);
  const query = QUERY.exec(text);
  if (query && (marker === undefined || query.index < marker.index)) {
    return { kind: "query", index: query.index };
  }
  return marker ? { kind: marker.kind, argument: marker.text, index: marker.index } : null;
}

/** Where the first knowledge command of `text` starts, or null when it has none. */
export function firstCommandIndex(text: string): number | null {
  return parseCommand(text)?.index ?? null;
}

/** The `hand off to <slug>: <objective>` request of `text`, when that is its earliest command. */
export function handoffRequestOf(text: string): { agentId: string; objective: string } | null {
  const found = findToolCommand(text);
  if (found?.command.kind !== "handoff") return null;
  const knowledgeAt = firstCommandIndex(text);
  return knowledgeAt !== null && knowledgeAt < found.index ? null : found.command;
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

export function union(...lists: readonly (readonly string[])[]): string[] {
  return lists.flat().reduce<string[]>(pushUnique, []);
}

/** `n` words of `text` on one line, with an ellipsis when cut. */
export function excerpt(text: string, words: number): string {
  const all = text.trim().split(/\s+/).filter(Boolean);
  const head = all.slice(0, words).join(" ");
  return all.length > words ? `${head}…` : head;
}

export function countWords(text: string): number {
  return text.trim().split(/\s+/).filter(Boolean).length;
}

function readBrief(text: string): HandoffArtifact | null {
  const markdown = extractCarriedOverBlock(text);
  if (markdown === null) return null;
  try {
    return parseHandoffMarkdown(markdown);
  } catch {
    // A brief it cannot read is a brief it does not have: the model must not fail the turn.
    return null;
  }
}

/** A done-work item as the artifact records it (`t3: task` or free text), with its id apart. */
function doneTaskOf(item: string): DoneTask {
  const id = TASK_ID.exec(item);
  return id?.[1] ? { id: id[1].toLowerCase(), task: item.slice(id[0].length) } : { task: item };
}

const sameText = (a: string, b: string) => normalize(a) === normalize(b);

/*
 * What the markers recorded, in the artifact's fields, as the handoff's mechanical merge records
 * them (applyExplicitMarkers): `remember` → must_preserve, `note` → confirmed_facts, `decide` →
 * key_decisions, `todo` → remaining_tasks, `done` → completed_work. A carried brief's tasks are
 * part of it, so new task ids continue after theirs; its facts and decisions stay in `carried`.
 */
class KnowledgeBuilder implements OfflineKnowledge {
  carried: HandoffArtifact | null = null;
  notes: string[] = [];
  firstUserText: string | undefined;
  private marks: HandoffArtifact = emptyArtifact();

  get facts(): string[] {
    return this.marks.must_preserve;
  }
  get noted(): string[] {
    return this.marks.confirmed_facts;
  }
  get decisions(): string[] {
    return this.marks.key_decisions;
  }
  get openTasks(): RemainingTask[] {
    return this.marks.remaining_tasks;
  }
  get doneTasks(): DoneTask[] {
    return this.marks.completed_work.map(doneTaskOf);
  }

  carry(brief: HandoffArtifact): void {
    this.carried = brief;
    const open = [...this.marks.remaining_tasks];
    for (const task of brief.remaining_tasks) {
      if (!open.some((t) => t.id === task.id)) open.push(task);
    }
    this.marks = {
      ...this.marks,
      remaining_tasks: open,
      completed_work: union(this.marks.completed_work, brief.completed_work),
    };
  }

  pin(facts: readonly string[]): void {
    this.marks = { ...this.marks, must_preserve: union(this.marks.must_preserve, facts) };
  }

  readSummary(text: string): void {
    const start = text.indexOf(OFFLINE_SUMMARY_HEADING);
    if (start === -1) return;
    let section: keyof typeof SUMMARY_SECTION | undefined;
    const lines = text.slice(start + OFFLINE_SUMMARY_HEADING.length).split("\n");
    const m = this.marks;
    for (const raw of lines) {
      const line = raw.trim();
      if (line === "") continue;
      const heading = (Object.keys(SUMMARY_SECTION) as (keyof typeof SUMMARY_SECTION)[]).find(
        (key) => SUMMARY_SECTION[key] === line,
      );
      if (heading) {
        section = heading;
        continue;
      }
      if (!line.startsWith("- ") || section === undefined) break;
      const item = line.slice(2).trim();
      const task = doneTaskOf(item);
      if (section === "facts") m.must_preserve = pushUnique(m.must_preserve, item);
      else if (section === "noted") m.confirmed_facts = pushUnique(m.confirmed_facts, item);
      else if (section === "decisions") m.key_decisions = pushUnique(m.key_decisions, item);
      else if (section === "open" && task.id !== undefined) {
        const id = task.id;
        if (!m.remaining_tasks.some((t) => t.id === id)) {
          m.remaining_tasks = [...m.remaining_tasks, { id, task: task.task }];
        }
      } else if (section === "done") {
        m.remaining_tasks = m.remaining_tasks.filter((t) => t.id !== task.id);
        if (!m.completed_work.some((w) => sameText(doneTaskOf(w).task, task.task))) {
          m.completed_work = [...m.completed_work, item];
        }
      }
    }
  }

  /**
   * `instruction`: the app's own request (write the handoff); its commands count, its prose not.
   * `objective`: this message asked for the handoff that gave this agent the run, so a hand-off
   * request in it stands for the brief's objective.
   */
  readUserText(text: string, instruction = false, objective?: string): OfflineEvent | null {
    if (text.includes(OFFLINE_COMPACT_MARKER)) return null;
    // A brief or a summary inside a user message is context, not something the user said.
    const summaryAt = text.indexOf(OFFLINE_SUMMARY_HEADING);
    const own = summaryAt === -1 ? text : text.slice(0, summaryAt);
    // The run loop's "continue the task" after a mid-run reset is no message of the user's.
    let stripped = own.replace(BRIEF_BLOCK, "").replace(CONTINUE_INSTRUCTION, "").trim();
    // Context alone is no turn; an attachment-only message is one, answered as "no text".
    if (stripped === "") return text.trim() === "" ? NO_TEXT : null;
    const handoff = handoffRequestOf(stripped);
    if (handoff && objective !== undefined) stripped = objective;
    else if (handoff) {
      // The objective is the next agent's to do: none of its words is a command to this one.
      if (!instruction) this.firstUserText ??= stripped;
      return { kind: "handoff", agentId: handoff.agentId };
    }
    const command = parseCommand(stripped);
    if (command === null) {
      if (instruction) return null;
      this.firstUserText ??= stripped;
      this.notes.push(stripped);
      return { kind: "note", text: stripped };
    }
    if (!instruction) this.firstUserText ??= stripped;
    // Every marker of the message counts, as in the handoff's mechanical merge.
    const events = findExplicitMarkers(stripped).map((marker) => this.mark(marker));
    if (command.kind === "query") return { kind: "query" };
    return events.length === 1 && events[0] ? events[0] : { kind: "markers", events };
  }

  /** Applies one marker and says what it did. */
  private mark(marker: ExplicitMarker): OfflineEvent {
    const before = this.marks;
    const after = applyExplicitMarkers(before, [marker]);
    this.marks = after;
    const { text } = marker;
    switch (marker.kind) {
      case "remember": {
        const known = after.must_preserve.length === before.must_preserve.length;
        return { kind: "remember", fact: text, known };
      }
      case "note": {
        const known = after.confirmed_facts.length === before.confirmed_facts.length;
        return { kind: "noted", fact: text, known };
      }
      case "decide": {
        const known = after.key_decisions.length === before.key_decisions.length;
        return { kind: "decide", decision: text, known };
      }
      case "todo": {
        const added = after.remaining_tasks.length > before.remaining_tasks.length;
        const task = added
          ? after.remaining_tasks.at(-1)
          : before.remaining_tasks.find((t) => sameText(t.task, text));
        return { kind: "todo", task: task ?? { id: "", task: text }, known: !added };
      }
      case "done":
        return doneEvent(before, after, text);
    }
  }
}

/** What a `done` marker did, from the artifact before and after it. */
function doneEvent(before: HandoffArtifact, after: HandoffArtifact, text: string): OfflineEvent {
  const closed = before.remaining_tasks.find((t) => !after.remaining_tasks.includes(t));
  if (closed)
    return { kind: "done", outcome: "closed", task: { id: closed.id, task: closed.task } };
  if (after.completed_work.length > before.completed_work.length) {
    return { kind: "done", outcome: "free_text", task: { task: text } };
  }
  const id = TASK_ID.exec(text)?.[1]?.toLowerCase();
  const done = id
    ? before.completed_work.map(doneTaskOf).find((t) => t.id === id)
    : before.completed_work.filter((w) => sameText(w, text)).map(doneTaskOf)[0];
  if (done) return { kind: "done", outcome: "already_done", task: done };
  return { kind: "done", outcome: "unknown_id", id: id ?? text };
}

export interface PromptReading {
  knowledge: OfflineKnowledge;
  /** What the last user message did; null when the prompt has no user text. */
  lastEvent: OfflineEvent | null;
}

/**
 * Where the app's request begins in a structured-output prompt: the handoff writer appends its
 * instruction (and a repair request) as user messages after the conversation, which ends with an
 * assistant reply because the triggering user message moves to the next session. Without any
 * assistant reply, only the last user message is taken as the request.
 */
export function requestStart(prompt: LanguageModelV3Prompt): number {
  const lastReply = prompt.findLastIndex((m) => m.role === "assistant");
  if (lastReply !== -1) return lastReply + 1;
  const lastUser = prompt.findLastIndex((m) => m.role === "user");
  return lastUser === -1 ? prompt.length : lastUser;
}

export function wantsCompaction(prompt: LanguageModelV3Prompt): boolean {
  return prompt.some(
    (m) =>
      (m.role === "system" || m.role === "user") && messageText(m).includes(OFFLINE_COMPACT_MARKER),
  );
}

/**
 * Folds the prompt, oldest message first. A brief counts only in a system or user message (where
 * the app puts it); assistant text is never a source of facts except a compaction summary.
 * `structured`: the prompt asks for the handoff, so its trailing user messages are the app's
 * instruction rather than conversation (see requestStart).
 */
export function readPrompt(
  prompt: LanguageModelV3Prompt,
  { structured = false }: { structured?: boolean } = {},
): PromptReading {
  const knowledge = new KnowledgeBuilder();
  const instructionFrom = structured ? requestStart(prompt) : prompt.length;
  const agent = readAgentBrief(prompt);
  if (agent) knowledge.pin(agent.brief.mustPreserve);
  let lastEvent: OfflineEvent | null = null;
  for (const [index, message] of prompt.entries()) {
    if (message.role === "tool") continue;
    const text = messageText(message);
    // Only the first brief counts, as in extractCarriedOverBlock: the app puts it before any
    // user message, so a block a user pastes later cannot displace it.
    if (message.role !== "assistant" && knowledge.carried === null) {
      const brief = readBrief(text);
      if (brief) knowledge.carry(brief);
    }
    knowledge.readSummary(text);
    if (message.role === "user") {
      const objective = index === agent?.requestIndex ? agent.brief.objective : undefined;
      lastEvent = knowledge.readUserText(text, index >= instructionFrom, objective) ?? lastEvent;
    }
  }
  return { knowledge, lastEvent };
}
