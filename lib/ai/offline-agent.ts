// The offline model as an agent: from its prompt alone it decides the next step of a tool
// command — one tool call, or the text reply that ends the run. The run loop calls the model
// once per step, so every decision reads the progress so far from the prompt (the plan block,
// the carried-over brief, the tool calls and results since the request) and never from memory.
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { firstCommandIndex, readPrompt } from "./offline-knowledge";
import { findToolCommand, type ToolCommand } from "./offline-tool-commands";
import {
  currentPlan,
  findRequest,
  highestPlanNumber,
  inputField,
  type PlanItem,
  type ReadResult,
  type ToolStep,
  toolSteps,
} from "./offline-transcript";
import { renderWorkNote } from "./offline-work-text";

export type OfflineStep =
  | { kind: "tool-call"; toolName: string; input: Record<string, unknown> }
  | { kind: "text"; text: string };

/** A ranged follow-up read after a preview shows at most this many lines. */
export const FOLLOW_UP_READ_LINES = 50;

export function workNotePath(id: string): string {
  return `work/${id}.md`;
}

/** Names of the tools this call may use; none when the caller forbids tool calls. */
export function availableTools(options: LanguageModelV3CallOptions): Set<string> {
  if (options.toolChoice?.type === "none") return new Set();
  return new Set((options.tools ?? []).map((t) => t.name));
}

function call(toolName: string, input: Record<string, unknown>): OfflineStep {
  return { kind: "tool-call", toolName, input };
}
function say(text: string): OfflineStep {
  return { kind: "text", text };
}

const code = (path: string) => `\`${path}\``;

function missingTool(what: string, tool: string): OfflineStep {
  return say(
    `I can't ${what} here: this conversation gives me no \`${tool}\` tool, so I only answer in text.`,
  );
}

/** What went wrong with a call, for a reply: the tool's own error or the denial. */
function failureText(result: ReadResult): string {
  if (result.status === "denied") {
    return result.message ? `the request was denied (${result.message})` : "the request was denied";
  }
  // Callers end the sentence themselves.
  return (result.message || "the tool reported an error").trim().replace(/[.!?]+$/, "");
}

function lastCall(steps: ToolStep[], toolName: string): ToolStep | undefined {
  return steps.findLast((s) => s.toolName === toolName);
}

interface Context {
  prompt: LanguageModelV3Prompt;
  tools: Set<string>;
  /** Tool calls since the request, oldest first. */
  steps: ToolStep[];
  requestIndex: number;
  continued: boolean;
  brief: HandoffArtifact | null;
}

function stepWrite(ctx: Context, path: string, content: string): OfflineStep {
  if (!ctx.tools.has("write_file")) return missingTool("write files", "write_file");
  const done = lastCall(ctx.steps, "write_file");
  if (!done?.result) return call("write_file", { path, content });
  if (done.result.status !== "ok") {
    return say(
      `I couldn't write ${code(path)}: ${failureText(done.result)}. The file was not changed.`,
    );
  }
  const words = content.split(/\s+/).filter(Boolean).length;
  const version = inputField(done.result.value, "version");
  const versionText = typeof version === "number" ? `, version ${version}` : "";
  return say(`Wrote ${code(path)} (${words} word${words === 1 ? "" : "s"}${versionText}).`);
}

function stepDelete(ctx: Context, path: string): OfflineStep {
  if (!ctx.tools.has("delete_file")) return missingTool("delete files", "delete_file");
  const done = lastCall(ctx.steps, "delete_file");
  if (!done?.result) return call("delete_file", { path });
  if (done.result.status === "denied") {
    return say(`The file ${code(path)} was not deleted: ${failureText(done.result)}.`);
  }
  if (done.result.status === "error") {
    return say(
      `I couldn't delete ${code(path)}: ${failureText(done.result)}. The file was not deleted.`,
    );
  }
  return say(`Deleted ${code(path)}. Its earlier versions stay in the file history.`);
}

function stepList(ctx: Context): OfflineStep {
  if (!ctx.tools.has("list_files")) return missingTool("list files", "list_files");
  const done = lastCall(ctx.steps, "list_files");
  if (!done?.result) return call("list_files", {});
  if (done.result.status !== "ok")
    return say(`I couldn't list the files: ${failureText(done.result)}.`);
  const files = inputField(done.result.value, "files");
  if (!Array.isArray(files))
    return say(`The file list came back as: ${clip(done.result.message, 400)}`);
  if (files.length === 0) return say("The workspace has no files yet.");
  const lines = files.map((file) => {
    const path = inputField(file, "path");
    const bytes = inputField(file, "bytes");
    return `- ${code(String(path))}${typeof bytes === "number" ? ` (${bytes} bytes)` : ""}`;
  });
  return say(
    [`The workspace has ${files.length} file${files.length === 1 ? "" : "s"}:`, ...lines].join(
      "\n",
    ),
  );
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The first words of a numbered read window (`N: text` lines), without the numbers. */
function openingWords(content: unknown, words: number): string {
  if (typeof content !== "string") return "";
  const text = content
    .split("\n")
    .map((line) => line.replace(/^\d+: ?/, ""))
    .join(" ");
  const all = text.split(/\s+/).filter(Boolean);
  return all.slice(0, words).join(" ") + (all.length > words ? "…" : "");
}

interface Window {
  startLine: number;
  endLine: number;
  totalLines: number;
}

function windowOf(value: unknown): Window | null {
  const startLine = inputField(value, "startLine");
  const endLine = inputField(value, "endLine");
  const totalLines = inputField(value, "totalLines");
  if (typeof startLine !== "number" || typeof endLine !== "number") return null;
  if (typeof totalLines !== "number") return null;
  return { startLine, endLine, totalLines };
}

function stepRead(ctx: Context, command: Extract<ToolCommand, { kind: "read" }>): OfflineStep {
  if (!ctx.tools.has("read_file")) return missingTool("read files", "read_file");
  const { path } = command;
  const reads = ctx.steps.filter((s) => s.toolName === "read_file");
  const first = reads[0];
  if (!first) {
    const range =
      command.startLine !== undefined
        ? { startLine: command.startLine, endLine: command.endLine }
        : {};
    return call("read_file", { path, ...range });
  }
  if (!first.result) return say(`I am still waiting for ${code(path)}.`);
  if (first.result.status !== "ok")
    return say(`I couldn't read ${code(path)}: ${failureText(first.result)}.`);
  const shown = windowOf(first.result.value);
  const preview = inputField(first.result.value, "hint") !== undefined;
  // A preview of a large file: read on once, as many lines as the preview showed (at most 50),
  // so the follow-up costs about as much context as the preview did.
  if (reads.length === 1 && preview && shown && shown.endLine < shown.totalLines) {
    const count = Math.max(1, Math.min(FOLLOW_UP_READ_LINES, shown.endLine - shown.startLine + 1));
    const startLine = shown.endLine + 1;
    return call("read_file", {
      path,
      startLine,
      endLine: Math.min(shown.totalLines, startLine + count - 1),
    });
  }
  const second = reads[1];
  if (second?.result && second.result.status !== "ok") {
    return say(
      `I read the start of ${code(path)}, but reading on failed: ${failureText(second.result)}.`,
    );
  }
  const last = second?.result ?? first.result;
  const lastWindow = windowOf(last.value);
  if (!shown || !lastWindow) return say(`I read ${code(path)}: ${clip(first.result.message, 300)}`);
  const opening = openingWords(inputField(last.value, "content"), 16);
  const lines = `${lastWindow.totalLines} line${lastWindow.totalLines === 1 ? "" : "s"}`;
  if (second) {
    return say(
      `${code(path)} has ${lines}. Lines ${shown.startLine}–${shown.endLine} came as a preview, so I ` +
        `read on: lines ${lastWindow.startLine}–${lastWindow.endLine} begin “${opening}”.`,
    );
  }
  if (lastWindow.endLine < lastWindow.startLine) return say(`${code(path)} is empty.`);
  const part =
    lastWindow.startLine === 1 && lastWindow.endLine >= lastWindow.totalLines
      ? "I read all of it"
      : `I read lines ${lastWindow.startLine}–${lastWindow.endLine}`;
  return say(`${code(path)} has ${lines}; ${part}. It begins “${opening}”.`);
}

function planList(items: PlanItem[]): string[] {
  return items.map((item) => `- ${item.id}: ${item.task}`);
}

function stepPlan(ctx: Context, tasks: string[]): OfflineStep {
  if (!ctx.tools.has("update_plan")) return missingTool("keep a plan", "update_plan");
  const done = lastCall(ctx.steps, "update_plan");
  // A new plan replaces the old one; its ids continue after the highest id the prompt shows, so
  // an id (and its work/<id>.md note) never names two different tasks.
  const first = highestPlanNumber(ctx.prompt.slice(0, ctx.requestIndex + 1), ctx.brief) + 1;
  const items: PlanItem[] = tasks.map((task, i) => ({
    id: `p${first + i}`,
    task,
    status: "pending",
  }));
  if (!done?.result) return call("update_plan", { items });
  if (done.result.status !== "ok")
    return say(`I couldn't set the plan: ${failureText(done.result)}.`);
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

/** Files written in this run, plus (after a reset) those the carried brief lists. */
function filesWritten(ctx: Context): string[] {
  const files = new Set<string>(ctx.continued ? (ctx.brief?.files_modified ?? []) : []);
  for (const s of ctx.steps) {
    const path = inputField(s.input, "path");
    if (s.toolName === "write_file" && s.result?.status === "ok" && typeof path === "string") {
      files.add(path);
    }
  }
  return [...files];
}

function stepWork(ctx: Context): OfflineStep {
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
    // Its note written in this run, or (after a reset) listed by the carried brief: mark it done.
    // Plan ids are never reused for another task, so a listed note belongs to this item.
    // Otherwise write it (again): the note is a function of the item.
    const written =
      succeeded(ctx.steps, "write_file", path) ||
      (ctx.continued && (ctx.brief?.files_modified ?? []).includes(path));
    if (written) return call("update_plan", withStatus(plan, active.id, "done"));
    return call("write_file", { path, content: renderWorkNote(active.id, active.task) });
  }
  const next = plan.find((item) => item.status === "pending");
  if (next) return call("update_plan", withStatus(plan, next.id, "in_progress"));
  const files = filesWritten(ctx);
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

function stepCall(ctx: Context, toolName: string, input: unknown): OfflineStep {
  if (!ctx.tools.has(toolName)) return missingTool(`call ${toolName}`, toolName);
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return say(
      `The arguments for \`${toolName}\` must be a JSON object, e.g. call ${toolName} {"key": "value"}.`,
    );
  }
  const done = lastCall(ctx.steps, toolName);
  if (!done?.result) return call(toolName, input as Record<string, unknown>);
  if (done.result.status !== "ok")
    return say(`\`${toolName}\` failed: ${failureText(done.result)}.`);
  const shown =
    done.result.value === undefined ? done.result.message : JSON.stringify(done.result.value);
  return say(`\`${toolName}\` returned: ${clip(shown, 600)}`);
}

/**
 * The next step for the tool command in the request, or null when the request is no tool
 * command (the knowledge vocabulary answers it then).
 */
export function decideToolStep(options: LanguageModelV3CallOptions): OfflineStep | null {
  const { prompt } = options;
  const request = findRequest(prompt);
  if (request === null) return null;
  const found = findToolCommand(request.text);
  if (found === null) return null;
  const knowledgeAt = firstCommandIndex(request.text);
  if (knowledgeAt !== null && knowledgeAt < found.index) return null;
  const ctx: Context = {
    prompt,
    tools: availableTools(options),
    steps: toolSteps(prompt, request.index + 1),
    requestIndex: request.index,
    continued: request.continued,
    brief: readPrompt(prompt).knowledge.carried,
  };
  const command = found.command;
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
    case "call":
      return stepCall(ctx, command.toolName, command.input);
    case "call_invalid":
      return say(
        `I couldn't read the arguments for \`${command.toolName}\`: give them as JSON, e.g. ` +
          `call ${command.toolName} {"key": "value"}.`,
      );
  }
}

/** A call identical to the previous successful one would loop until the step limit: stop. */
function guardRepeat(ctx: Context, step: OfflineStep): OfflineStep {
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
