// What the offline model knows: a pure fold over the prompt (user commands, carried-over handoff
// briefs, its own compaction summaries) and the texts it writes from that (SPEC §3).
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import {
  type HandoffArtifact,
  handoffArtifactSchema,
  type RemainingTask,
} from "@/lib/handoff/artifact";
import {
  CARRIED_OVER_CLOSE_TAG,
  CARRIED_OVER_OPEN_TAG,
  extractCarriedOverBlock,
} from "@/lib/handoff/brief";
import { parseHandoffMarkdown } from "@/lib/handoff/markdown";

export interface DoneTask {
  /** Absent for work done outside a `todo` (a brief's completed_work, `done <free text>`). */
  id?: string;
  task: string;
}

export interface OfflineKnowledge {
  /** The carried-over handoff in the prompt; null when there is none. */
  carried: HandoffArtifact | null;
  /** `remember` facts and facts read back from a compaction summary. */
  facts: string[];
  decisions: string[];
  openTasks: RemainingTask[];
  doneTasks: DoneTask[];
  /** User messages that were not commands, oldest first. */
  notes: string[];
  firstUserText: string | undefined;
}

export type OfflineEvent =
  | { kind: "remember"; fact: string; known: boolean }
  | { kind: "decide"; decision: string; known: boolean }
  | { kind: "todo"; task: RemainingTask; known: boolean }
  | { kind: "done"; outcome: "closed" | "already_done" | "free_text"; task: DoneTask }
  | { kind: "done"; outcome: "unknown_id"; id: string }
  | { kind: "query" }
  | { kind: "note"; text: string }
  | { kind: "no_text" };

const NO_TEXT: OfflineEvent = { kind: "no_text" };

/** In a system (or user) message, asks for a compaction summary instead of a reply. */
export const OFFLINE_COMPACT_MARKER = "[[baton:compact]]";

/** First line of a compaction summary; the model reads its own summaries back by it. */
export const OFFLINE_SUMMARY_HEADING = "Summary of earlier messages (offline demo model):";

const SECTION = {
  facts: "Facts:",
  decisions: "Decisions:",
  open: "Open tasks:",
  done: "Done tasks:",
} as const;

/*
 * Commands (case-insensitive, anywhere in a user message; the earliest one wins). The keyword
 * must be followed by `:` or whitespace and a non-empty argument, so "I'm done." or "we
 * decided" are plain messages. The argument runs to the end of its line or sentence.
 */
const COMMAND = /\b(remember|decide|todo|done)\b[:\t ][\t ]*(\S[^\n]*)|\b(what do you know)\b/gi;
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
const MAX_ITEM_CHARS = 4_000;
const MAX_SUMMARY_CHARS = 2_000;

type Keyword = "remember" | "decide" | "todo" | "done";
type Command = { kind: Keyword; argument: string } | { kind: "query" };

export function parseCommand(text: string): Command | null {
  for (const match of text.matchAll(COMMAND)) {
    if (match[3]) return { kind: "query" };
    // COMMAND's first group captures nothing but these four words.
    const keyword = match[1]?.toLowerCase() as Keyword | undefined;
    const argument = cleanArgument(match[2] ?? "");
    if (keyword && argument) return { kind: keyword, argument };
  }
  return null;
}

function cleanArgument(raw: string): string {
  const end = SENTENCE_END.exec(raw);
  const sentence = end ? raw.slice(0, end.index) : raw;
  return clip(sentence.replace(TRAILING_PUNCTUATION, "").trim(), MAX_ITEM_CHARS);
}

function clip(text: string, max: number): string {
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

function union(...lists: readonly (readonly string[])[]): string[] {
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

function messageText(message: LanguageModelV3Prompt[number]): string {
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => (part.type === "text" ? part.text : ""))
    .filter(Boolean)
    .join("\n");
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
    let section: keyof typeof SECTION | undefined;
    const lines = text.slice(start + OFFLINE_SUMMARY_HEADING.length).split("\n");
    for (const raw of lines) {
      const line = raw.trim();
      if (line === "") continue;
      const heading = (Object.keys(SECTION) as (keyof typeof SECTION)[]).find(
        (key) => SECTION[key] === line,
      );
      if (heading) {
        section = heading;
        continue;
      }
      if (!line.startsWith("- ") || section === undefined) break;
      const item = line.slice(2).trim();
      const task = TASK_ID.exec(item);
      if (section === "facts") pushUnique(this.facts, item);
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

  /** `instruction`: the app's own request (write the handoff); its commands count, its prose not. */
  readUserText(text: string, instruction = false): OfflineEvent | null {
    if (text.includes(OFFLINE_COMPACT_MARKER)) return null;
    // A brief or a summary inside a user message is context, not something the user said.
    const summaryAt = text.indexOf(OFFLINE_SUMMARY_HEADING);
    const own = summaryAt === -1 ? text : text.slice(0, summaryAt);
    const stripped = own.replace(BRIEF_BLOCK, "").trim();
    // Context alone is no turn; an attachment-only message is one, answered as "no text".
    if (stripped === "") return text.trim() === "" ? NO_TEXT : null;
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
function requestStart(prompt: LanguageModelV3Prompt): number {
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
      lastEvent = knowledge.readUserText(text, index >= instructionFrom) ?? lastEvent;
    }
  }
  return { knowledge, lastEvent };
}

/** Every fact the model can see, carried ones first. */
export function allFacts(k: OfflineKnowledge): string[] {
  return union(k.carried?.confirmed_facts ?? [], k.carried?.must_preserve ?? [], k.facts);
}

export function allDecisions(k: OfflineKnowledge): string[] {
  return union(k.carried?.key_decisions ?? [], k.decisions);
}

function doneLabel(task: DoneTask): string {
  return task.id ? `${task.id}: ${task.task}` : task.task;
}

function bulletList(items: readonly string[]): string[] {
  return items.length ? items.map((item) => `- ${item}`) : ["- (none)"];
}

/** The `what do you know?` answer. */
export function renderKnowledge(k: OfflineKnowledge): string {
  const facts = allFacts(k);
  const decisions = allDecisions(k);
  if (facts.length + decisions.length + k.openTasks.length + k.doneTasks.length === 0) {
    return "I don't know anything yet. Tell me with “remember …”, “decide …” or “todo …”.";
  }
  return [
    "Here is everything I can see in this conversation.",
    "",
    "**Facts**",
    ...bulletList(facts),
    "",
    "**Decisions**",
    ...bulletList(decisions),
    "",
    "**Open tasks**",
    ...bulletList(k.openTasks.map((t) => `${t.id}: ${t.task}`)),
    "",
    "**Done tasks**",
    ...bulletList(k.doneTasks.map(doneLabel)),
  ].join("\n");
}

/** A compaction summary, written so readPrompt can read it back after compaction. */
export function renderSummary(k: OfflineKnowledge): string {
  const section = (heading: string, items: readonly string[]) =>
    items.length ? [heading, ...items.map((item) => `- ${item}`)] : [];
  const digest = k.notes.length
    ? `Other messages (${k.notes.length}): ${k.notes.map((n) => `“${excerpt(n, 8)}”`).join("; ")}`
    : "Other messages: none.";
  return [
    OFFLINE_SUMMARY_HEADING,
    ...section(SECTION.facts, allFacts(k)),
    ...section(SECTION.decisions, allDecisions(k)),
    ...section(
      SECTION.open,
      k.openTasks.map((t) => `${t.id}: ${t.task}`),
    ),
    ...section(SECTION.done, k.doneTasks.map(doneLabel)),
    "",
    digest,
  ].join("\n");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * The handoff built extractively from the prompt, merged over the carried brief so chained
 * resets keep everything: `remember` → confirmed_facts and must_preserve, `decide` →
 * key_decisions, `todo` → remaining_tasks, `done` → completed_work, other messages →
 * state_summary and last_completed_step.
 */
export function buildArtifact(k: OfflineKnowledge): HandoffArtifact {
  const carried = k.carried;
  // Only the latest message is reflected: anything older survives a reset only through a command.
  const recent = k.notes.slice(-1).map((n) => `“${excerpt(n, 20)}”`);
  const summary = [
    `Offline demo session with ${plural(allFacts(k).length, "fact")}, ` +
      `${plural(allDecisions(k).length, "decision")}, ${plural(k.openTasks.length, "open task")} ` +
      `and ${plural(k.doneTasks.length, "done task")}.`,
    recent.length ? `Latest message: ${recent.join("; ")}.` : "",
    carried?.state_summary ? `Before that: ${carried.state_summary}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const lastNote = k.notes.at(-1);
  const firstOpen = k.openTasks[0];
  return handoffArtifactSchema.parse({
    goal: clip(carried?.goal || k.firstUserText || "", MAX_ITEM_CHARS),
    state_summary: clip(summary, MAX_SUMMARY_CHARS),
    completed_work: k.doneTasks.map((t) => t.task),
    in_progress: carried?.in_progress ?? [],
    remaining_tasks: k.openTasks,
    key_decisions: allDecisions(k),
    confirmed_facts: union(carried?.confirmed_facts ?? [], k.facts),
    unknowns: carried?.unknowns ?? [],
    must_preserve: union(carried?.must_preserve ?? [], k.facts),
    files_modified: carried?.files_modified ?? [],
    last_completed_step: lastNote
      ? clip(`Replied to: ${lastNote}`, MAX_ITEM_CHARS)
      : (carried?.last_completed_step ?? ""),
    next_step: firstOpen ? `${firstOpen.id}: ${firstOpen.task}` : (carried?.next_step ?? ""),
    needs_authorization: carried?.needs_authorization ?? [],
  } satisfies HandoffArtifact);
}

/** The chat answer to the last user message. */
export function renderReply(reading: PromptReading): string {
  const event = reading.lastEvent;
  if (event === null) {
    return "Hi — I'm Baton's offline demo model. Try “remember …”, “todo …” or “what do you know?”.";
  }
  switch (event.kind) {
    case "remember":
      return event.known
        ? `I already know that ${event.fact}.`
        : `Noted — I'll remember that ${event.fact}.`;
    case "decide":
      return event.known
        ? `That decision is already recorded: ${event.decision}.`
        : `Decision recorded: ${event.decision}.`;
    case "todo":
      return event.known
        ? `That is already task ${event.task.id}: ${event.task.task}.`
        : `Added task ${event.task.id}: ${event.task.task}.`;
    case "done":
      switch (event.outcome) {
        case "closed":
          return `Marked ${event.task.id} as done: ${event.task.task}.`;
        case "already_done":
          return `Already done: ${doneLabel(event.task)}.`;
        case "free_text":
          return `Marked as done: ${event.task.task}.`;
        case "unknown_id":
          return `I don't see a task ${event.id} in this conversation.`;
      }
      break;
    case "query":
      return renderKnowledge(reading.knowledge);
    case "no_text":
      return "I can only read text, and your message has none: I'm the offline demo model.";
    case "note": {
      const words = countWords(event.text);
      return (
        `You said: “${excerpt(event.text, 12)}” (${plural(words, "word")}). I'm the offline ` +
        "demo model: I understand remember, decide, todo, done and “what do you know?”."
      );
    }
  }
  return "";
}
