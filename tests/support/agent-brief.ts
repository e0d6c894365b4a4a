// Agent handoff in the offline model's unit tests: the handoff tools' definitions a call offers
// and the brief a target agent's system prompt holds, in the form the run renders it.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { ToolDefinition } from "@/lib/ai/tokens";
import { json, type OfflineDriver, user } from "./offline-driver";

export const HANDOFF_TOOL_DEFINITIONS: ToolDefinition[] = [
  {
    type: "function",
    name: "handoff_to_agent",
    description: "Hand the next stage of this run to another agent with a written brief.",
    inputSchema: {
      type: "object",
      properties: { agentId: { type: "string" }, handoff: { type: "object" } },
      required: ["agentId", "handoff"],
    },
  },
  {
    type: "function",
    name: "list_agents",
    description: "List the agents this one may hand off to.",
    inputSchema: { type: "object", properties: { purpose: { type: "string" } } },
  },
];

export const HANDOFF_ACCEPTED = json({
  ok: true,
  message: "Handoff accepted for Agent Editor. Your part is complete.",
});

export const assistant = (text: string): LanguageModelV3Prompt[number] => ({
  role: "assistant",
  content: [{ type: "text", text }],
});

/** One finished turn: the message, every step the model takes, its reply. */
export async function turn(
  driver: OfflineDriver,
  prompt: LanguageModelV3Prompt,
  text: string,
): Promise<string> {
  prompt.push(user(text));
  const { text: reply } = await driver.drive(prompt);
  prompt.push(assistant(reply));
  return reply;
}

export interface BriefFields {
  from?: string;
  title?: string;
  reason?: string;
  objective: string;
  contextSummary?: string;
  workspaceRefs?: string[];
  mustPreserve?: string[];
  completionCriteria?: string[];
  additional?: Record<string, string>;
}

/** The markdown brief of an agent handoff; sections with nothing in them are left out. */
export function agentBriefMarkdown(b: BriefFields): string {
  const section = (heading: string, body: string | undefined) =>
    body ? [`## ${heading}`, body, ""] : [];
  const list = (heading: string, items: string[] | undefined) =>
    items?.length ? [`## ${heading}`, ...items.map((i) => `- ${i}`), ""] : [];
  return [
    "# Handoff Brief",
    "",
    "You are now responsible for the next stage of this run. " +
      `${b.from ?? "Agent Writer"} handed it to you with the brief below; nothing returns to them.`,
    "",
    ...section("Title", b.title),
    ...section("Reason", b.reason),
    "## Objective",
    b.objective,
    "",
    ...section("Context Summary", b.contextSummary),
    ...list("Workspace References", b.workspaceRefs),
    ...list("Must Preserve", b.mustPreserve),
    ...list("Completion Criteria", b.completionCriteria),
    ...list(
      "Additional Instructions",
      Object.entries(b.additional ?? {}).map(([k, v]) => `${k}: ${v}`),
    ),
    "## Working Notes",
    "- Inspect the referenced files before editing them.",
    "- Preserve earlier decisions unless this brief says to revise them.",
    "- If another agent should continue, hand off again with a clear brief.",
  ].join("\n");
}
