// The texts the offline model writes from what it knows: chat replies, the `what do you know?`
// answer, compaction summaries and the handoff artifact (with the plan and files its prompt shows).
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { type HandoffArtifact, handoffArtifactSchema } from "@/lib/handoff/artifact";
import { LAST_USER_REQUEST_PREFIX } from "@/lib/handoff/merge";
import {
  clip,
  countWords,
  type DoneTask,
  excerpt,
  MAX_ITEM_CHARS,
  MAX_SUMMARY_CHARS,
  OFFLINE_SUMMARY_HEADING,
  type OfflineKnowledge,
  type PromptReading,
  SUMMARY_SECTION,
  union,
} from "./knowledge";
import { currentPlan, inputField, type PlanItem, type ToolStep, toolSteps } from "./transcript";

/** Every fact the model can see, carried ones first. */
export function allFacts(k: OfflineKnowledge): string[] {
  return union(k.carried?.confirmed_facts ?? [], k.carried?.must_preserve ?? [], k.facts, k.noted);
}

/** Pinned facts (`remember`, a brief's must_preserve), carried ones first. */
function pinnedFacts(k: OfflineKnowledge): string[] {
  return union(k.carried?.must_preserve ?? [], k.facts);
}

/** Unpinned facts (`note`, a brief's confirmed facts) that are not also pinned. */
function unpinnedFacts(k: OfflineKnowledge): string[] {
  const pinned = new Set(pinnedFacts(k).map((f) => f.toLowerCase().replace(/\s+/g, " ").trim()));
  return union(k.carried?.confirmed_facts ?? [], k.noted).filter(
    (f) => !pinned.has(f.toLowerCase().replace(/\s+/g, " ").trim()),
  );
}

/** The last request the carried brief records (what the user asked before the reset). */
function lastRequestBeforeReset(k: OfflineKnowledge): string | null {
  const item = k.carried?.in_progress.find((t) => t.startsWith(LAST_USER_REQUEST_PREFIX));
  return item ? item.slice(LAST_USER_REQUEST_PREFIX.length) : null;
}

function allDecisions(k: OfflineKnowledge): string[] {
  return union(k.carried?.key_decisions ?? [], k.decisions);
}

function doneLabel(task: DoneTask): string {
  return task.id ? `${task.id}: ${task.task}` : task.task;
}

function bulletList(items: readonly string[]): string[] {
  return items.length ? items.map((item) => `- ${item}`) : ["- (none)"];
}

/** The `what do you know?` answer. */
function renderKnowledge(k: OfflineKnowledge): string {
  const facts = allFacts(k);
  const decisions = allDecisions(k);
  const request = lastRequestBeforeReset(k);
  if (facts.length + decisions.length + k.openTasks.length + k.doneTasks.length === 0 && !request) {
    return "I don't know anything yet. Tell me with “remember …”, “note …”, “decide …” or “todo …”.";
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
    ...(request ? ["", "**Last request before the reset**", `- ${request}`] : []),
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
    ...section(SUMMARY_SECTION.facts, pinnedFacts(k)),
    ...section(SUMMARY_SECTION.noted, unpinnedFacts(k)),
    ...section(SUMMARY_SECTION.decisions, allDecisions(k)),
    ...section(
      SUMMARY_SECTION.open,
      k.openTasks.map((t) => `${t.id}: ${t.task}`),
    ),
    ...section(SUMMARY_SECTION.done, k.doneTasks.map(doneLabel)),
    "",
    digest,
  ].join("\n");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** What the prompt shows of tool work: the plan, the files written, the last step taken. */
export interface WorkFacts {
  plan: PlanItem[];
  /** Paths written, edited or deleted by successful calls in the prompt. */
  files: string[];
  /** The last successful tool step after the last user message, described; null if none. */
  lastStep: string | null;
}

const FILE_TOOLS = new Set(["write_file", "edit_file", "delete_file"]);

function describeStep(step: ToolStep): string {
  const path = inputField(step.input, "path");
  const target = typeof path === "string" ? ` ${path}` : "";
  switch (step.toolName) {
    case "write_file":
      return `Wrote${target}`;
    case "edit_file":
      return `Edited${target}`;
    case "delete_file":
      return `Deleted${target}`;
    case "read_file":
      return `Read${target}`;
    case "list_files":
      return "Listed the workspace files";
    case "update_plan":
      return "Updated the plan";
    default:
      return `Called ${step.toolName}`;
  }
}

/**
 * The work facts of a prompt. `requestEnd`: index of the last user message that is
 * conversation (the handoff writer's own instruction comes after it).
 */
export function readWorkFacts(
  prompt: LanguageModelV3Prompt,
  requestEnd: number,
  brief: HandoffArtifact | null,
): WorkFacts {
  const steps = toolSteps(prompt);
  const files: string[] = [];
  for (const step of steps) {
    const path = inputField(step.input, "path");
    if (FILE_TOOLS.has(step.toolName) && step.result?.status === "ok" && typeof path === "string") {
      if (!files.includes(path)) files.push(path);
    }
  }
  const last = steps.findLast((s) => s.result?.status === "ok" && s.messageIndex > requestEnd);
  return {
    plan: currentPlan(prompt, brief),
    files,
    lastStep: last ? describeStep(last) : null,
  };
}

const PLAN_ID_LABEL = /^(p[1-9]\d*):/;
const label = (item: PlanItem) => `${item.id}: ${item.task}`;

/**
 * The handoff built extractively from the prompt, merged over the carried brief so chained
 * resets keep everything: `remember` → must_preserve (a pin), `note` → confirmed_facts,
 * `decide` → key_decisions, `todo` → remaining_tasks, `done` → completed_work (a closed todo as `tN: task`), other messages →
 * state_summary and last_completed_step. The state summary describes this point and is written
 * afresh at every reset (it never quotes the previous one). The plan as the prompt shows it replaces the plan
 * items a carried brief lists: pending → remaining_tasks, in progress → in_progress, done →
 * completed_work (as `pN: task`, so a carried pending item is settled by its id).
 */
export function buildArtifact(
  k: OfflineKnowledge,
  work: WorkFacts = { plan: [], files: [], lastStep: null },
): HandoffArtifact {
  const carried = k.carried;
  const plan = work.plan;
  const inPlan = (id: string | undefined) => id !== undefined && plan.some((p) => p.id === id);
  const byStatus = (status: PlanItem["status"]) => plan.filter((p) => p.status === status);
  // Only the latest message is reflected: anything older survives a reset only through a command.
  // Short: the run carries the last request verbatim, so the summary only points at it.
  const recent = k.notes.slice(-1).map((n) => `“${excerpt(n, 8)}”`);
  const planSummary = plan.length
    ? `Plan: ${byStatus("done").length} of ${plural(plan.length, "item")} done.`
    : "";
  const summary = [
    `Offline demo session with ${plural(allFacts(k).length, "fact")}, ` +
      `${plural(allDecisions(k).length, "decision")}, ${plural(k.openTasks.length, "open task")} ` +
      `and ${plural(k.doneTasks.length, "done task")}.`,
    planSummary,
    recent.length ? `Latest message: ${recent.join("; ")}.` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const lastNote = k.notes.at(-1);
  const openTasks = plan.length
    ? [
        ...k.openTasks.filter((t) => !PLAN_ID_LABEL.test(`${t.id}:`)),
        ...byStatus("pending").map((p) => ({ id: p.id, task: p.task })),
      ]
    : k.openTasks;
  const stale = (item: string) => inPlan(PLAN_ID_LABEL.exec(item)?.[1]);
  const next = byStatus("in_progress")[0] ?? byStatus("pending")[0] ?? k.openTasks[0] ?? undefined;
  return handoffArtifactSchema.parse({
    goal: clip(carried?.goal || k.firstUserText || "", MAX_ITEM_CHARS),
    state_summary: clip(summary, MAX_SUMMARY_CHARS),
    completed_work: union(
      k.doneTasks.map(doneLabel).filter((t) => !stale(t)),
      byStatus("done").map(label),
    ),
    in_progress: union(
      // The last user request is refreshed by the run at every reset, never carried.
      (carried?.in_progress ?? []).filter(
        (t) => !stale(t) && !t.startsWith(LAST_USER_REQUEST_PREFIX),
      ),
      byStatus("in_progress").map(label),
    ),
    remaining_tasks: openTasks,
    key_decisions: allDecisions(k),
    confirmed_facts: unpinnedFacts(k),
    unknowns: carried?.unknowns ?? [],
    must_preserve: pinnedFacts(k),
    files_modified: union(carried?.files_modified ?? [], work.files),
    last_completed_step: work.lastStep
      ? work.lastStep
      : lastNote
        ? `Replied to: “${excerpt(lastNote, 8)}”`
        : (carried?.last_completed_step ?? ""),
    next_step: next ? `${next.id}: ${next.task}` : (carried?.next_step ?? ""),
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
    case "noted":
      return event.known ? `I already know that ${event.fact}.` : `Noted: ${event.fact}.`;
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
    case "markers":
      return event.events.map((e) => renderReply({ ...reading, lastEvent: e })).join("\n");
    case "query":
      return renderKnowledge(reading.knowledge);
    case "handoff":
      return `Handing over to ${event.agentId} needs the \`handoff_to_agent\` tool, which I don't have here.`;
    case "no_text":
      return "I can only read text, and your message has none: I'm the offline demo model.";
    case "note": {
      const words = countWords(event.text);
      return (
        `You said: “${quoted(excerpt(event.text, 12))}” (${plural(words, "word")}). I'm the offline ` +
        "demo model: I understand remember, note, decide, todo, done and “what do you know?”."
      );
    }
  }
  return "";
}

/**
 * Text quoted inside a reply, its backticks made literal: a quote cut inside a code fence would
 * otherwise open a code block the rest of the reply renders in. Other markdown is kept (an image
 * quoted back still renders as the link the message view makes of it).
 */
function quoted(text: string): string {
  return text.replace(/`/g, "\\`");
}
