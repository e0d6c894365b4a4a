// The offline model's agent-handoff commands: `hand off to <slug>: <objective>` makes one
// handoff_to_agent call whose brief is built from what the prompt shows (files written, plan,
// facts, a brief it was handed itself), and `list agents` lists the agents it may hand off to.
import { clip, MAX_ITEM_CHARS, readPrompt, union } from "./knowledge";
import { allFacts } from "./replies";
import {
  call,
  failureText,
  lastCall,
  missingTool,
  type OfflineStep,
  type StepContext,
  say,
  spilledText,
} from "./steps";
import { currentPlan, inputField, toolSteps } from "./transcript";

/** Items per list of a brief: a brief is read whole by the next agent, so it stays short. */
const MAX_BRIEF_ITEMS = 50;
const MAX_TITLE_CHARS = 60;
export const NOTHING_DONE = "Nothing was done before this handoff.";

interface HandoffInput {
  agentId: string;
  handoff: {
    objective: string;
    title: string;
    reason: string;
    contextSummary: string;
    workspaceRefs?: string[];
    mustPreserve?: string[];
    completionCriteria: string[];
  };
}

/** The objective's first line without closing punctuation: what titles and criteria quote. */
function headline(objective: string): string {
  const line = objective.split(/\r?\n/).find((l) => l.trim() !== "") ?? objective;
  return line.trim().replace(/[\s.,;:!?]+$/, "");
}

function titleOf(objective: string): string {
  const line = headline(objective);
  const text = line.charAt(0).toUpperCase() + line.slice(1);
  if (text.length <= MAX_TITLE_CHARS) return text;
  const cut = text.slice(0, MAX_TITLE_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  // Cut at a word unless that would leave only a word or two.
  return `${(space >= MAX_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

interface FilesTouched {
  written: string[];
  edited: string[];
}

/** Paths the conversation wrote or edited (in order), less those it deleted afterwards. */
function filesTouched(ctx: StepContext): FilesTouched {
  const written: string[] = [];
  const edited: string[] = [];
  for (const step of toolSteps(ctx.prompt)) {
    if (step.result?.status !== "ok") continue;
    const stored = inputField(step.result.value, "path");
    const path = typeof stored === "string" ? stored : inputField(step.input, "path");
    if (typeof path !== "string") continue;
    const list =
      step.toolName === "write_file" ? written : step.toolName === "edit_file" ? edited : null;
    if (list && !list.includes(path)) list.push(path);
    if (step.toolName === "delete_file") {
      for (const l of [written, edited]) if (l.includes(path)) l.splice(l.indexOf(path), 1);
    }
  }
  return { written, edited: edited.filter((path) => !written.includes(path)) };
}

function contextSummaryOf(ctx: StepContext, files: FilesTouched, facts: number): string {
  const sentences: string[] = [];
  const work = [
    files.written.length ? `wrote ${joinAnd(files.written)}` : "",
    files.edited.length ? `edited ${joinAnd(files.edited)}` : "",
  ].filter(Boolean);
  if (work.length) sentences.push(`I ${work.join(" and ")}.`);
  const plan = currentPlan(ctx.prompt, ctx.brief);
  const state = [
    plan.length
      ? `the plan has ${plural(plan.length, "item")}, ${plan.filter((p) => p.status === "done").length} done`
      : "",
    facts ? `${plural(facts, "fact")} ${facts === 1 ? "is" : "are"} known` : "",
  ].filter(Boolean);
  const joined = state.join("; ");
  if (joined) sentences.push(`${joined.charAt(0).toUpperCase()}${joined.slice(1)}.`);
  const earlier = ctx.agentBrief?.contextSummary ?? "";
  if (earlier && earlier !== NOTHING_DONE) sentences.push(`Earlier: ${clip(earlier, 600)}`);
  return sentences.length ? sentences.join(" ") : NOTHING_DONE;
}

const capped = (items: readonly string[]) =>
  items.slice(0, MAX_BRIEF_ITEMS).map((item) => clip(item, MAX_ITEM_CHARS));

/** The handoff_to_agent input for `hand off to <agentId>: <objective>` at this point. */
function buildHandoffInput(ctx: StepContext, agentId: string, objective: string): HandoffInput {
  const facts = allFacts(readPrompt(ctx.prompt).knowledge);
  const files = filesTouched(ctx);
  const refs = union(
    ctx.brief?.files_modified ?? [],
    ctx.agentBrief?.workspaceRefs ?? [],
    files.written,
    files.edited,
  );
  return {
    agentId,
    handoff: {
      objective: clip(objective, MAX_ITEM_CHARS),
      title: titleOf(objective),
      reason: `The user asked for ${agentId} to take over.`,
      contextSummary: contextSummaryOf(ctx, files, facts.length),
      ...(refs.length ? { workspaceRefs: capped(refs) } : {}),
      ...(facts.length ? { mustPreserve: capped(facts) } : {}),
      completionCriteria: [clip(`${headline(objective)} is done.`, MAX_ITEM_CHARS)],
    },
  };
}

export function stepHandoff(ctx: StepContext, agentId: string, objective: string): OfflineStep {
  if (!ctx.tools.has("handoff_to_agent")) {
    return missingTool("hand the work to another agent", "handoff_to_agent");
  }
  const done = lastCall(ctx.steps, "handoff_to_agent");
  if (!done) {
    return call("handoff_to_agent", { ...buildHandoffInput(ctx, agentId, objective) });
  }
  if (!done.result) return say(`I am waiting for the handoff to ${agentId} to be accepted.`);
  if (done.result.status !== "ok") {
    return say(`I could not hand off to ${agentId}: ${failureText(done.result)}.`);
  }
  // The run gives the next stage to the target: this agent is normally not asked again.
  const message = inputField(done.result.value, "message");
  return say(typeof message === "string" && message ? message : `Handed off to ${agentId}.`);
}

function agentLine(agent: unknown): string {
  const id = String(inputField(agent, "id") ?? "");
  const name = inputField(agent, "name");
  const description = inputField(agent, "description");
  const label = `${typeof name === "string" && name ? name : id} (${id})`;
  return typeof description === "string" && description.trim()
    ? `- ${label}: ${clip(description, 300)}`
    : `- ${label}`;
}

export function stepListAgents(ctx: StepContext): OfflineStep {
  if (!ctx.tools.has("list_agents")) return missingTool("list the agents", "list_agents");
  const done = lastCall(ctx.steps, "list_agents");
  if (!done?.result) return call("list_agents", { purpose: "handoff" });
  if (done.result.status !== "ok") {
    return say(`I couldn't list the agents: ${failureText(done.result)}.`);
  }
  const spilled = spilledText(done.result);
  if (spilled) return say(spilled);
  const agents = inputField(done.result.value, "agents");
  if (!Array.isArray(agents)) {
    return say(`The agent list came back as: ${clip(done.result.message, 400)}`);
  }
  if (agents.length === 0) return say("There are no agents I can hand off to.");
  return say(
    [
      `I can hand off to ${plural(agents.length, "agent")}:`,
      ...agents.map(agentLine),
      "",
      "Say “hand off to <id>: <task>” to give one of them the next stage.",
    ].join("\n"),
  );
}
