// What the offline model reads when another agent handed it the run: the markdown brief in its
// system prompt (`# Handoff Brief` and its sections) and the user message that brief stands for
// (the request that asked for the handoff, moved into this agent's session).
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { ownText } from "./transcript";

export interface AgentBriefReading {
  /** The agent that handed over, as the brief's opening names it; null when it names none. */
  from: string | null;
  objective: string;
  /** Empty when the brief leaves the section out. */
  title: string;
  reason: string;
  contextSummary: string;
  workspaceRefs: string[];
  mustPreserve: string[];
  completionCriteria: string[];
  /** `key: value` lines of "Additional Instructions". */
  additional: string[];
}

const AGENT_BRIEF_HEADING = "# Handoff Brief";

const SECTIONS = [
  "Title",
  "Reason",
  "Objective",
  "Context Summary",
  "Workspace References",
  "Must Preserve",
  "Completion Criteria",
  "Additional Instructions",
  "Working Notes",
] as const;
type Section = (typeof SECTIONS)[number];

const SECTION_HEADING = /^##[\t ]+(.+?)[\t ]*$/;
const FROM = /\bnext stage of this run\.\s+(.+?)\s+handed it to you\b/;
// What follows the brief in a system prompt: another top-level heading or a block tag.
const AFTER_BRIEF = /^(?:# |<[A-Za-z_][\w-]*(?:\s[^>]*)?>$)/;

function isSection(name: string): name is Section {
  return (SECTIONS as readonly string[]).includes(name);
}

function bullets(lines: readonly string[]): string[] {
  return lines
    .filter((line) => /^[-*][\t ]+/.test(line))
    .map((line) => line.replace(/^[-*][\t ]+/, "").trim())
    .map((item) => (/^`[^`]+`$/.test(item) ? item.slice(1, -1) : item))
    .filter((item) => item !== "");
}

/**
 * The brief in `text`, or null when it holds none or the brief has no objective. The sections
 * run from their `## Heading` to the next known one; the brief ends after Working Notes (its
 * last section) or where the system prompt's next block begins.
 */
export function parseAgentBrief(text: string): AgentBriefReading | null {
  const lines = text.split(/\r?\n/).map((line) => line.trimEnd());
  const start = lines.indexOf(AGENT_BRIEF_HEADING);
  if (start === -1) return null;
  const intro: string[] = [];
  const sections = new Map<Section, string[]>();
  let current = intro;
  let section: Section | null = null;
  for (const line of lines.slice(start + 1)) {
    const heading = SECTION_HEADING.exec(line)?.[1];
    if (heading !== undefined && isSection(heading)) {
      section = heading;
      current = [];
      sections.set(heading, current);
      continue;
    }
    if (AFTER_BRIEF.test(line)) break;
    if (section === "Working Notes" && line === "" && current.length > 0) break;
    current.push(line);
  }
  const prose = (name: Section) => (sections.get(name) ?? []).join("\n").trim();
  const list = (name: Section) => bullets(sections.get(name) ?? []);
  const objective = prose("Objective");
  if (objective === "") return null;
  return {
    from: FROM.exec(intro.join(" "))?.[1] ?? null,
    objective,
    title: prose("Title"),
    reason: prose("Reason"),
    contextSummary: prose("Context Summary"),
    workspaceRefs: [...new Set(list("Workspace References"))],
    mustPreserve: list("Must Preserve"),
    completionCriteria: list("Completion Criteria"),
    additional: list("Additional Instructions"),
  };
}

export interface AgentBriefTurn {
  brief: AgentBriefReading;
  /**
   * Index of the session's first user message: the request the source agent answered by
   * handing off, which the brief's objective replaces. -1 when the prompt has no user text.
   */
  requestIndex: number;
}

/** The brief of the first system message that holds one, with the message it stands for. */
export function readAgentBrief(prompt: LanguageModelV3Prompt): AgentBriefTurn | null {
  for (const message of prompt) {
    if (message.role !== "system") continue;
    const brief = parseAgentBrief(message.content);
    if (brief === null) continue;
    const requestIndex = prompt.findIndex((m) => m.role === "user" && ownText(m) !== "");
    return { brief, requestIndex };
  }
  return null;
}

const OWN_SLUG = /\bHere you are the agent .+? \(([a-z][a-z0-9-]*)\)\./;

/**
 * The slug the agent's own prompt gives it ("Here you are the agent Editor (editor)."), present
 * when it may hand off; null otherwise.
 */
export function ownAgentId(prompt: LanguageModelV3Prompt): string | null {
  for (const message of prompt) {
    if (message.role !== "system") continue;
    const found = OWN_SLUG.exec(message.content)?.[1];
    if (found) return found;
  }
  return null;
}

/** A brief that stands for an objective alone (a hand-off the agent asked of itself). */
export function objectiveBrief(objective: string): AgentBriefReading {
  return {
    from: null,
    objective,
    title: "",
    reason: "",
    contextSummary: "",
    workspaceRefs: [],
    mustPreserve: [],
    completionCriteria: [],
    additional: [],
  };
}
