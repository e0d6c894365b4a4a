// The offline model's single-call tool commands (write, read, delete, list files, call): the
// next step from the prompt — the call when none was made since the request, else the reply
// that reads its result. Shared step helpers for ./agent live here too.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import type { AgentBriefReading } from "./agent-brief";
import type { ToolCommand } from "./tool-commands";
import { inputField, type ReadResult, type ToolStep } from "./transcript";

export type OfflineStep =
  | { kind: "tool-call"; toolName: string; input: Record<string, unknown> }
  | { kind: "text"; text: string };

/** A ranged follow-up read after a preview shows at most this many lines. */
const FOLLOW_UP_READ_LINES = 50;

export function call(toolName: string, input: Record<string, unknown>): OfflineStep {
  return { kind: "tool-call", toolName, input };
}
export function say(text: string): OfflineStep {
  return { kind: "text", text };
}

export const code = (path: string) => `\`${path}\``;

export function missingTool(what: string, tool: string): OfflineStep {
  return say(
    `I can't ${what} here: this conversation gives me no \`${tool}\` tool, so I only answer in text.`,
  );
}

/** What went wrong with a call, for a reply: the tool's own error or the denial. */
export function failureText(result: ReadResult): string {
  if (result.status === "denied") {
    return result.message ? `the request was denied (${result.message})` : "the request was denied";
  }
  // Callers end the sentence themselves.
  return (result.message || "the tool reported an error").trim().replace(/[.!?]+$/, "");
}

export function lastCall(steps: ToolStep[], toolName: string): ToolStep | undefined {
  return steps.findLast((s) => s.toolName === toolName);
}

export interface StepContext {
  prompt: LanguageModelV3Prompt;
  tools: Set<string>;
  /** Tool calls since the request, oldest first. */
  steps: ToolStep[];
  requestIndex: number;
  continued: boolean;
  brief: HandoffArtifact | null;
  /** The brief another agent handed this one (in the system prompt); null when none did. */
  agentBrief: AgentBriefReading | null;
}

export function stepWrite(ctx: StepContext, path: string, content: string): OfflineStep {
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

export function stepDelete(ctx: StepContext, path: string): OfflineStep {
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

export function stepList(ctx: StepContext): OfflineStep {
  if (!ctx.tools.has("list_files")) return missingTool("list files", "list_files");
  const done = lastCall(ctx.steps, "list_files");
  if (!done?.result) return call("list_files", {});
  if (done.result.status !== "ok")
    return say(`I couldn't list the files: ${failureText(done.result)}.`);
  const spilled = spilledText(done.result);
  if (spilled) return say(spilled);
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

/** A result too large to send whole (stored in a file, a preview shown), described; else null. */
export function spilledText(result: ReadResult): string | null {
  if (inputField(result.value, "spilled") !== true) return null;
  const path = inputField(result.value, "path");
  const lines = inputField(result.value, "totalLines");
  const preview = inputField(result.value, "preview");
  return (
    `The result was too large to show whole; it is stored in ${code(String(path))}` +
    `${typeof lines === "number" ? ` (${lines} lines)` : ""}. It begins: ` +
    `“${clip(typeof preview === "string" ? preview : "", 200)}”`
  );
}

export function clip(text: string, max: number): string {
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

export function stepRead(
  ctx: StepContext,
  command: Extract<ToolCommand, { kind: "read" }>,
): OfflineStep {
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

export function stepCall(ctx: StepContext, toolName: string, input: unknown): OfflineStep {
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
  const spilled = spilledText(done.result);
  if (spilled) return say(`\`${toolName}\` returned a large result. ${spilled}`);
  const shown =
    done.result.value === undefined ? done.result.message : JSON.stringify(done.result.value);
  return say(`\`${toolName}\` returned: ${clip(shown, 600)}`);
}
