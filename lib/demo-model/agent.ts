// The offline model as an agent: from its prompt alone it decides the next step of a tool
// command — one tool call, or the text reply that ends the run. The run loop calls the model
// once per step, so every decision reads the progress so far from the prompt (the plan block,
// the carried-over brief, the tool calls and results since the request) and never from memory.
// An agent handed the run by another works on its brief's objective instead of the request.
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { type AgentBriefReading, objectiveBrief, ownAgentId, readAgentBrief } from "./agent-brief";
import { stepHandoff, stepListAgents } from "./handoff";
import { firstCommandIndex, handoffRequestOf, parseCommand, readPrompt } from "./knowledge";
import { stepRemember } from "./pin";
import { stepRecall } from "./recall";
import { findReviseCommand, stepRevise } from "./revise";
import {
  call,
  clip,
  code,
  failureText,
  lastCall,
  missingTool,
  type OfflineStep,
  type StepContext,
  say,
  stepCall,
  stepDelete,
  stepList,
  stepRead,
  stepWrite,
} from "./steps";
import { findToolCommand, type ToolCommand } from "./tool-commands";
import {
  currentPlan,
  findRequest,
  highestPlanNumber,
  inputField,
  type PlanItem,
  planAfter,
  type ToolStep,
  toolSteps,
  workspaceBlockPaths,
} from "./transcript";
import { renderWorkNote } from "./work-text";

export type { OfflineStep };

function workNotePath(id: string): string {
  return `work/${id}.md`;
}

/** Names of the tools this call may use; none when the caller forbids tool calls. */
function availableTools(options: LanguageModelV3CallOptions): Set<string> {
  if (options.toolChoice?.type === "none") return new Set();
  return new Set((options.tools ?? []).map((t) => t.name));
}

function planList(items: PlanItem[]): string[] {
  return items.map((item) => `- ${item.id}: ${item.task}`);
}

function stepPlan(ctx: StepContext, tasks: string[]): OfflineStep {
  if (!ctx.tools.has("update_plan")) return missingTool("keep a plan", "update_plan");
  const done = lastCall(ctx.steps, "update_plan");
  if (!done?.result) {
    // A new plan replaces the old one; its ids continue after the highest id the prompt shows,
    // so an id (and its work/<id>.md note) never names two different tasks.
    const first = highestPlanNumber(ctx.prompt.slice(0, ctx.requestIndex + 1), ctx.brief) + 1;
    const items: PlanItem[] = tasks.map((task, i) => ({
      id: `p${first + i}`,
      task,
      status: "pending",
    }));
    return call("update_plan", { items });
  }
  if (done.result.status !== "ok")
    return say(`I couldn't set the plan: ${failureText(done.result)}.`);
  // The plan as stored: numbering it afresh would count the ids the call itself added (the run
  // loop renders the new plan into the system prompt's block before this step).
  const items = planAfter(done) ?? [];
  return say(
    [
      `Plan set with ${items.length} item${items.length === 1 ? "" : "s"}:`,
      ...planList(items),
      "",
      "Say “work through the plan” and I will do them one by one.",
    ].join("\n"),
  );
}

function withStatus(plan: PlanItem[], id: string, status: PlanItem["status"]) {
  return { items: plan.map((item) => (item.id === id ? { ...item, status } : item)) };
}

function succeeded(steps: ToolStep[], toolName: string, path: string): boolean {
  return steps.some(
    (s) =>
      s.toolName === toolName && inputField(s.input, "path") === path && s.result?.status === "ok",
  );
}

/**
 * Files written in this run, plus (after a reset) the notes of done items that the workspace
 * block lists and those the carried brief lists — the brief names only the last session's files,
 * so after two resets it alone would leave out the first session's notes.
 */
function filesWritten(ctx: StepContext, plan: readonly PlanItem[]): string[] {
  const files = new Set<string>();
  if (ctx.continued) {
    const listed = workspaceBlockPaths(ctx.prompt);
    for (const item of plan) {
      const note = `work/${item.id}.md`;
      if (item.status === "done" && listed.includes(note)) files.add(note);
    }
    for (const path of ctx.brief?.files_modified ?? []) files.add(path);
  }
  for (const s of ctx.steps) {
    const path = inputField(s.input, "path");
    if (s.toolName === "write_file" && s.result?.status === "ok" && typeof path === "string") {
      files.add(path);
    }
  }
  return [...files];
}

function stepWork(ctx: StepContext): OfflineStep {
  for (const tool of ["update_plan", "write_file"]) {
    if (!ctx.tools.has(tool)) return missingTool("work through a plan", tool);
  }
  const previous = ctx.steps.at(-1);
  if (previous?.result && previous.result.status !== "ok") {
    const path = inputField(previous.input, "path");
    const what =
      typeof path === "string" ? `${previous.toolName} on ${code(path)}` : previous.toolName;
    return say(
      `I stopped working through the plan: ${what} failed — ${failureText(previous.result)}. ` +
        "The plan shows how far I got.",
    );
  }
  const plan = currentPlan(ctx.prompt, ctx.brief);
  if (plan.length === 0) {
    return say(
      "There is no plan to work through yet. Make one with “plan: first task; second task”.",
    );
  }
  const active = plan.find((item) => item.status === "in_progress");
  if (active) {
    const path = workNotePath(active.id);
    // Its note written in this run, or listed by the workspace block or (after a reset) the
    // carried brief: mark it done. The plan ids this model hands out are never reused for another
    // task, so a listed note belongs to this item. Otherwise write it (again): the note is a
    // function of the item.
    const written =
      succeeded(ctx.steps, "write_file", path) ||
      workspaceBlockPaths(ctx.prompt).includes(path) ||
      (ctx.continued && (ctx.brief?.files_modified ?? []).includes(path));
    if (written) return call("update_plan", withStatus(plan, active.id, "done"));
    return call("write_file", { path, content: renderWorkNote(active.id, active.task) });
  }
  const next = plan.find((item) => item.status === "pending");
  if (next) return call("update_plan", withStatus(plan, next.id, "in_progress"));
  const files = filesWritten(ctx, plan);
  if (files.length === 0) {
    return say(
      `Every item of the plan is already done (${plan.length}); there was nothing left to write.`,
    );
  }
  return say(
    [
      `I worked through the plan: all ${plan.length} item${plan.length === 1 ? " is" : "s are"} done.`,
      "",
      "Files I wrote:",
      ...files.map((file) => `- ${code(file)}`),
    ].join("\n"),
  );
}

/**
 * The next step for the tool command in the request, or null when the request is no tool
 * command (the knowledge vocabulary answers it then).
 */
export function decideToolStep(options: LanguageModelV3CallOptions): OfflineStep | null {
  const { prompt } = options;
  const request = findRequest(prompt);
  if (request === null) return null;
  const agent = readAgentBrief(prompt);
  const ctx: StepContext = {
    prompt,
    tools: availableTools(options),
    steps: toolSteps(prompt, request.index + 1),
    requestIndex: request.index,
    continued: request.continued,
    brief: readPrompt(prompt).knowledge.carried,
    agentBrief: agent?.brief ?? null,
  };
  // The request that asked for the handoff, moved into this agent's session: its objective is
  // this agent's to do, so the request is never handed off again.
  if (agent && agent.requestIndex === request.index && handoffRequestOf(request.text)) {
    return stepAsTarget(ctx, agent.brief);
  }
  const found = findToolCommand(request.text);
  const knowledgeAt = firstCommandIndex(request.text);
  if (knowledgeAt !== null && (found === null || knowledgeAt < found.index)) {
    // Knowledge commands are answered in text; `remember` pins its fact first.
    const command = parseCommand(request.text);
    return command?.kind === "remember"
      ? stepRemember(ctx, command.argument.replace(/^that\s+/i, ""))
      : null;
  }
  if (found === null) return null;
  // A hand-off to this agent itself (the request carried into a later session of the agent it
  // was handed to): the objective is its own to do.
  if (found.command.kind === "handoff" && found.command.agentId === ownAgentId(prompt)) {
    return stepAsTarget(ctx, objectiveBrief(found.command.objective));
  }
  return stepCommand(ctx, found.command);
}

function stepCommand(ctx: StepContext, command: ToolCommand): OfflineStep {
  switch (command.kind) {
    case "write":
      return stepWrite(ctx, command.path, command.content);
    case "read":
      return stepRead(ctx, command);
    case "delete":
      return stepDelete(ctx, command.path);
    case "list":
      return stepList(ctx);
    case "plan":
      return stepPlan(ctx, command.tasks);
    case "work":
      return guardRepeat(ctx, stepWork(ctx));
    case "handoff":
      return stepHandoff(ctx, command.agentId, command.objective);
    case "list_agents":
      return stepListAgents(ctx);
    case "recall":
      return stepRecall(ctx, command.query);
    case "call":
      return stepCall(ctx, command.toolName, command.input);
    case "call_invalid":
      return say(
        `I couldn't read the arguments for \`${command.toolName}\`: give them as JSON, e.g. ` +
          `call ${command.toolName} {"key": "value"}.`,
      );
  }
}

const pathOf = (step: ToolStep) => inputField(step.input, "path");

/**
 * The next step of an agent handed the run: read each workspace reference the session has not
 * read yet (one per step), then do the objective — a command it knows, a revision of a file, or
 * (anything else) an acknowledgement that quotes it. Null: a knowledge command, answered in text
 * from the fold, which reads the request as the objective too.
 */
function stepAsTarget(ctx: StepContext, brief: AgentBriefReading): OfflineStep | null {
  if (ctx.tools.has("read_file")) {
    const read = new Set(
      toolSteps(ctx.prompt).flatMap((s) => (s.toolName === "read_file" ? [pathOf(s)] : [])),
    );
    const unread = brief.workspaceRefs.find((path) => !read.has(path));
    if (unread !== undefined) return call("read_file", { path: unread });
  }
  const objective = brief.objective;
  const tool = findToolCommand(objective);
  const revise = findReviseCommand(objective);
  const knowledgeAt = firstCommandIndex(objective) ?? Number.POSITIVE_INFINITY;
  const toolAt = tool?.index ?? Number.POSITIVE_INFINITY;
  const reviseAt = revise?.index ?? Number.POSITIVE_INFINITY;
  if (revise && reviseAt < toolAt && reviseAt < knowledgeAt) return stepRevise(ctx, revise.command);
  if (tool && toolAt < knowledgeAt) {
    // The reference reads came first; the command sees only its own steps (a read of the file
    // it reads itself aside).
    const refs = new Set(brief.workspaceRefs);
    const own = tool.command.kind === "read" ? tool.command.path : null;
    let prelude = 0;
    while (prelude < ctx.steps.length) {
      const step = ctx.steps[prelude];
      if (step?.toolName !== "read_file" || !refs.has(String(pathOf(step)))) break;
      prelude++;
    }
    const steps = ctx.steps.filter((s, i) => i >= prelude || pathOf(s) === own);
    return stepCommand({ ...ctx, steps }, tool.command);
  }
  if (knowledgeAt !== Number.POSITIVE_INFINITY) return null;
  const from = brief.from ? ` from ${brief.from}` : "";
  const refs =
    brief.workspaceRefs.length && ctx.tools.has("read_file")
      ? ` I read ${brief.workspaceRefs.map(code).join(", ")}.`
      : "";
  return say(`I've taken over${from}.${refs} My objective: “${clip(objective, 300)}”`);
}

/** A call identical to the previous successful one would loop until the step limit: stop. */
function guardRepeat(ctx: StepContext, step: OfflineStep): OfflineStep {
  const previous = ctx.steps.at(-1);
  if (
    step.kind === "tool-call" &&
    previous?.result?.status === "ok" &&
    previous.toolName === step.toolName &&
    JSON.stringify(previous.input) === JSON.stringify(step.input)
  ) {
    return say(
      `I stopped: the next step would repeat the last \`${step.toolName}\` call unchanged.`,
    );
  }
  return step;
}
