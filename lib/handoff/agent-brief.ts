// The brief one agent writes when it hands the next stage of a run to another (docs/agents.md):
// the tool argument's shape, its normalized form (AgentBrief), the markdown the target reads, the
// handoff artifact mapped from it, and its redaction. Pure.
import { z } from "zod";
import type { AgentBrief, AgentRef } from "@/lib/chat/types";
import type { HandoffArtifact } from "./artifact";
import { redactText } from "./redact";

const MAX_TEXT = 20_000;
const MAX_ITEMS = 50;

const textList = z.array(z.string());

/**
 * `handoff` of handoff_to_agent as the model writes it. Only `objective` is required; other
 * fields the model adds are kept and rendered under "Additional Instructions". Sizes and the
 * objective's emptiness are checked by the tool itself (a clear error the model reads, never a
 * schema dump), and the schema stays small: every call of an agent that may transfer pays for it.
 */
export const briefInputSchema = z.looseObject({
  objective: z.string().describe("What the next agent must achieve (required)."),
  title: z.string().optional(),
  reason: z.string().optional().describe("Why this agent should take over."),
  contextSummary: z.string().optional().describe("What is done and where things stand."),
  workspaceRefs: textList.optional().describe("Files the next agent should read first."),
  mustPreserve: textList.optional().describe("Facts and decisions it must keep."),
  completionCriteria: textList.optional().describe("How it can tell its stage is done."),
});

export type BriefInput = z.infer<typeof briefInputSchema>;

const KNOWN_FIELDS = new Set([
  "objective",
  "title",
  "reason",
  "contextSummary",
  "workspaceRefs",
  "mustPreserve",
  "completionCriteria",
]);

const capped = (text: string, max = MAX_TEXT) =>
  text.length > max ? `${text.slice(0, max)}… [cut]` : text;

const clean = (text: string | undefined) => {
  const trimmed = text?.trim();
  return trimmed ? capped(trimmed) : undefined;
};

const cleanList = (items: readonly string[] | undefined) =>
  [
    ...new Set((items ?? []).map((item) => capped(item.trim())).filter((item) => item !== "")),
  ].slice(0, MAX_ITEMS);

/** The brief as stored: trimmed, empty fields dropped, extra fields as text. */
export function normalizeBrief(input: BriefInput, from: AgentRef, to: AgentRef): AgentBrief {
  const additional: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    if (KNOWN_FIELDS.has(key) || value === undefined || value === null) continue;
    const text = capped(
      Array.isArray(value)
        ? value.map(String).join("; ")
        : typeof value === "object"
          ? JSON.stringify(value)
          : String(value),
    );
    if (text.trim() !== "" && Object.keys(additional).length < MAX_ITEMS) {
      additional[capped(key, 100)] = text.trim();
    }
  }
  const brief: AgentBrief = {
    from,
    to,
    objective: capped(input.objective.trim()),
    workspaceRefs: cleanList(input.workspaceRefs),
    mustPreserve: cleanList(input.mustPreserve),
    completionCriteria: cleanList(input.completionCriteria),
    additional,
  };
  const title = clean(input.title);
  const reason = clean(input.reason);
  const contextSummary = clean(input.contextSummary);
  if (title) brief.title = title;
  if (reason) brief.reason = reason;
  if (contextSummary) brief.contextSummary = contextSummary;
  return brief;
}

const BRIEF_HEADING = "# Handoff Brief";

const WORKING_NOTES = [
  "Inspect the referenced files before editing them.",
  "Preserve earlier decisions unless this brief says to revise them.",
  "If another agent should continue, hand off again with a clear brief.",
];

const bullets = (items: readonly string[]) => items.map((item) => `- ${item}`).join("\n");

/** The markdown the target agent reads: never raw JSON, never a runtime id. */
export function renderBriefMarkdown(brief: AgentBrief): string {
  const sections: string[] = [
    BRIEF_HEADING,
    `You are now responsible for the next stage of this run. ${brief.from.name} handed it to you with the brief below; nothing returns to them.`,
  ];
  const section = (title: string, body: string | undefined) => {
    if (body) sections.push(`## ${title}\n${body}`);
  };
  const listSection = (title: string, items: readonly string[]) => {
    if (items.length > 0) sections.push(`## ${title}\n${bullets(items)}`);
  };
  section("Title", brief.title);
  section("Reason", brief.reason);
  sections.push(`## Objective\n${brief.objective}`);
  section("Context Summary", brief.contextSummary);
  listSection("Workspace References", brief.workspaceRefs);
  listSection("Must Preserve", brief.mustPreserve);
  listSection("Completion Criteria", brief.completionCriteria);
  listSection(
    "Additional Instructions",
    Object.entries(brief.additional).map(([key, value]) => `${key}: ${value}`),
  );
  listSection("Working Notes", WORKING_NOTES);
  return sections.join("\n\n");
}

/**
 * The handoff artifact a brief stands for, before the thread's earlier handoff and the run's
 * facts are merged in: the objective is the goal and the next step, the must-preserve items are
 * pinned, the completion criteria are the remaining work.
 */
export function briefArtifact(brief: AgentBrief): HandoffArtifact {
  return {
    goal: brief.objective,
    state_summary: brief.contextSummary ?? "",
    completed_work: [],
    in_progress: [`${brief.to.name} takes over from ${brief.from.name}: ${brief.objective}`],
    remaining_tasks: brief.completionCriteria.map((task, i) => ({ id: `c${i + 1}`, task })),
    key_decisions: brief.reason ? [`Handed to ${brief.to.name}: ${brief.reason}`] : [],
    confirmed_facts: brief.workspaceRefs.map((path) => `Workspace reference: ${path}`),
    unknowns: [],
    must_preserve: brief.mustPreserve,
    files_modified: [],
    last_completed_step: "",
    next_step: brief.objective,
    needs_authorization: [],
  };
}

/** Every free-text field of the brief masked; agent refs are names the user chose, kept as is. */
export function redactBrief(brief: AgentBrief): {
  brief: AgentBrief;
  redactions: { kind: string; field: string }[];
} {
  const redactions: { kind: string; field: string }[] = [];
  const field = (path: string, value: string) => {
    const { text, kinds } = redactText(value);
    for (const kind of kinds) redactions.push({ kind, field: `brief.${path}` });
    return text;
  };
  const optional = (path: string, value: string | undefined) =>
    value === undefined ? undefined : field(path, value);
  const list = (path: string, items: readonly string[]) =>
    items.map((item, i) => field(`${path}[${i}]`, item));
  const additional: Record<string, string> = {};
  for (const [key, value] of Object.entries(brief.additional)) {
    additional[field("additional.key", key)] = field(`additional.${key}`, value);
  }
  const redacted: AgentBrief = {
    from: brief.from,
    to: brief.to,
    objective: field("objective", brief.objective),
    workspaceRefs: list("workspaceRefs", brief.workspaceRefs),
    mustPreserve: list("mustPreserve", brief.mustPreserve),
    completionCriteria: list("completionCriteria", brief.completionCriteria),
    additional,
  };
  const title = optional("title", brief.title);
  const reason = optional("reason", brief.reason);
  const contextSummary = optional("contextSummary", brief.contextSummary);
  if (title !== undefined) redacted.title = title;
  if (reason !== undefined) redacted.reason = reason;
  if (contextSummary !== undefined) redacted.contextSummary = contextSummary;
  return { brief: redacted, redactions };
}
