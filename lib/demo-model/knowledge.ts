// What the offline model knows: a pure fold over the prompt (user commands, carried-over handoff
// briefs, another agent's handoff brief, its own compaction summaries). The texts it writes from
// that: ./replies.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { HandoffArtifact, RemainingTask } from "@/lib/handoff/artifact";
import {
  CARRIED_OVER_CLOSE_TAG,
  CARRIED_OVER_OPEN_TAG,
  extractCarriedOverBlock,
} from "@/lib/handoff/brief";
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

export type OfflineEvent =
  | { kind: "remember"; fact: string; known: boolean }
  | { kind: "noted"; fact: string; known: boolean }
  | { kind: "decide"; decision: string; known: boolean }
  | { kind: "todo"; task: RemainingTask; known: boolean }
  | { kind: "done"; outcome: "closed" | "already_done" | "free_text"; task: DoneTask }
  | { kind: "done"; outcome: "unknown_id"; id: string }
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
 * Commands (case-insensitive, anywhere in a user message; the earliest one wins). The keyword
 * must be followed by `:` or whitespace and a non-empty argument, so "I'm done." or "we
 * decided" are plain messages. The argument runs to the end of its line or sentence.
 */
const COMMAND =
  /\b(remember|note|decide|todo|done)\b[:\t ][\t ]*(\S[^\n]*)|\b(what do you know)\b/gi;
const SENTENCE_END = /[.!?](?=\s|$)/;
const TRAILING_PUNCTUATION = /[\s.,;:!?]+$/;
const TASK_ID = /^(t\d+)\b[\s:.-]*/i;
// Tag-like text inside a block is escaped by renderCarriedOverBlock, so the lazy match ends at
// the block's own closing tag.
const BRIEF_BLOCK = new RegExp(
  `${CARRIED_OVER_OPEN_TAG}(?:\\s[^>]*)?>[\\s\\S]*?${CARRIED_OVER_CLOSE_TAG}`,
  "g",
);

// Artifact strings are capped at 20,000 characters by the schema; stay well inside it.
export const MAX_ITEM_CHARS = 4_000;
export const MAX_SUMMARY_CHARS = 2_000;

type Keyword = "remember" | "note" | "decide" | "todo" | "done";
type Command = { kind: Keyword; argument: string } | { kind: "query" };

export function parseCommand(text: string): Command | null {
  for (const match of text.matchAll(COMMAND)) {
    if (match[3]) return { kind: "query" };
    // COMMAND's first group captures nothing but these five words.
    const keyword = match[1]?.toLowerCase() as Keyword | undefined;
    const argument = cleanArgument(match[2] ?? "");
    if (keyword && argument) return { kind: keyword, argument };
  }
  return null;
}

/** Where the first knowledge command of `text` starts, or null when it has none. */
export function firstCommandIndex(text: string): number | null {
  for (const match of text.matchAll(COMMAND)) {
    if (match[3] || cleanArgument(match[2] ?? "")) return match.index;
  }
  return null;
}

/** The `hand off to <slug>: <objective>` request of `text`, when that is its earliest command. */
export function handoffRequestOf(text: string): { agentId: string; objective: string } | null {
  const found = findToolCommand(text);
  if (found?.command.kind !== "handoff") return null;
  const knowledgeAt = firstCommandIndex(text);
  return knowledgeAt !== null && knowledgeAt < found.index ? null : found.command;
}

function cleanArgument(raw: string): string {
  const end = SENTENCE_END.exec(raw);
  const sentence = end ? raw.slice(0, end.index) : raw;
  return clip(sentence.replace(TRAILING_PUNCTUATION, "").trim(), MAX_ITEM_CHARS);
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

function pushUnique(list: string[], item: string): boolean {
  const key = normalize(item);
  if (list.some((existing) => normalize(existing) === key)) return false;
  list.push(item);
  return true;
}

export function union(...lists: readonly (readonly string[])[]): string[] {
  const out: string[] = [];
  for (const list of lists) for (const item of list) pushUnique(out, item);
  return out;
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

class KnowledgeBuilder implements OfflineKnowledge {
  carried: HandoffArtifact | null = null;
  facts: string[] = [];
  noted: string[] = [];
  decisions: string[] = [];
  openTasks: RemainingTask[] = [];
  doneTasks: DoneTask[] = [];
  notes: string[] = [];
  firstUserText: string | undefined;

  carry(brief: HandoffArtifact): void {
    this.carried = brief;
    for (const task of brief.remaining_tasks) {
      if (!this.openTasks.some((t) => t.id === task.id)) this.openTasks.push(task);
    }
    for (const work of brief.completed_work) this.addDone({ task: work });
  }

  pin(facts: readonly string[]): void {
    for (const fact of facts) pushUnique(this.facts, fact);
  }

  private addDone(task: DoneTask): void {
    const key = normalize(task.task);
    if (!this.doneTasks.some((t) => normalize(t.task) === key)) this.doneTasks.push(task);
  }

  /** t(N+1): N counts every task known so far, open or done, carried ones included. */
  private nextTaskId(): string {
    let highest = this.openTasks.length + this.doneTasks.length;
    for (const { id } of [...this.openTasks, ...this.doneTasks]) {
      const n = id ? /^t(\d+)$/i.exec(id)?.[1] : undefined;
      if (n !== undefined) highest = Math.max(highest, Number(n));
    }
    return `t${highest + 1}`;
  }

  readSummary(text: string): void {
    const start = text.indexOf(OFFLINE_SUMMARY_HEADING);
    if (start === -1) return;
    let section: keyof typeof SUMMARY_SECTION | undefined;
    const lines = text.slice(start + OFFLINE_SUMMARY_HEADING.length).split("\n");
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
      const task = TASK_ID.exec(item);
      if (section === "facts") pushUnique(this.facts, item);
      else if (section === "noted") pushUnique(this.noted, item);
      else if (section === "decisions") pushUnique(this.decisions, item);
      else if (section === "open" && task?.[1]) {
        const id = task[1].toLowerCase();
        if (!this.openTasks.some((t) => t.id === id)) {
          this.openTasks.push({ id, task: item.slice(task[0].length) });
        }
      } else if (section === "done") {
        const id = task?.[1]?.toLowerCase();
        this.openTasks = this.openTasks.filter((t) => t.id !== id);
        this.addDone(task && id ? { id, task: item.slice(task[0].length) } : { task: item });
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
    switch (command.kind) {
      case "query":
        return { kind: "query" };
      case "remember": {
        const fact = command.argument.replace(/^that\s+/i, "");
        return { kind: "remember", fact, known: !pushUnique(this.facts, fact) };
      }
      case "note": {
        const fact = command.argument.replace(/^that\s+/i, "");
        const known = this.facts.some((f) => normalize(f) === normalize(fact));
        return { kind: "noted", fact, known: known || !pushUnique(this.noted, fact) };
      }
      case "decide": {
        const decision = command.argument.replace(/^that\s+/i, "");
        return { kind: "decide", decision, known: !pushUnique(this.decisions, decision) };
      }
      case "todo":
        return this.addTask(command.argument);
      case "done":
        return this.closeTask(command.argument);
    }
  }

  private addTask(text: string): OfflineEvent {
    const key = normalize(text);
    const existing = this.openTasks.find((t) => normalize(t.task) === key);
    if (existing) return { kind: "todo", task: existing, known: true };
    const task = { id: this.nextTaskId(), task: text };
    this.openTasks.push(task);
    return { kind: "todo", task, known: false };
  }

  private closeTask(argument: string): OfflineEvent {
    const byId = TASK_ID.exec(argument)?.[1]?.toLowerCase();
    if (byId) {
      const open = this.openTasks.find((t) => t.id.toLowerCase() === byId);
      if (open) return this.close(open);
      const done = this.doneTasks.find((t) => t.id?.toLowerCase() === byId);
      if (done) return { kind: "done", outcome: "already_done", task: done };
      return { kind: "done", outcome: "unknown_id", id: byId };
    }
    const key = normalize(argument);
    const open =
      this.openTasks.find((t) => normalize(t.task) === key) ??
      this.openTasks.find((t) => {
        const task = normalize(t.task);
        return key.length >= 3 && (task.includes(key) || key.includes(task));
      });
    if (open) return this.close(open);
    const done = this.doneTasks.find((t) => normalize(t.task) === key);
    if (done) return { kind: "done", outcome: "already_done", task: done };
    const task = { task: argument };
    this.addDone(task);
    return { kind: "done", outcome: "free_text", task };
  }

  private close(task: RemainingTask): OfflineEvent {
    this.openTasks = this.openTasks.filter((t) => t !== task);
    const done = { id: task.id, task: task.task };
    this.doneTasks.push(done);
    return { kind: "done", outcome: "closed", task: done };
  }
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
