// `polish <path>` (or revise, edit, finish, with an optional note): what an agent that was handed
// a file does with it — read it whole, one window per step, write the revised version
// (./revise-text) and say what changed. Only a handed-over objective uses it.
import { LONG_LINE_MARK } from "@/core/workspace/text";
import { reviseText } from "./revise-text";
import {
  call,
  code,
  failureText,
  missingTool,
  type OfflineStep,
  type StepContext,
  say,
} from "./steps";
import { filePath, PATH_TOKEN } from "./tool-commands";
import { inputField, type ToolStep } from "./transcript";

export interface ReviseCommand {
  verb: "polish" | "revise" | "edit" | "finish";
  path: string;
  /** What followed the path on its line ("for tone"); empty when nothing did. */
  note: string;
}

/** Files up to this size are revised (a few read windows); larger ones are left alone. */
const MAX_REVISE_BYTES = 32 * 1024;
/** Read windows per file: a guard against a workspace that never returns the rest. */
const MAX_READS = 12;

const REVISE = new RegExp(`\\b(polish|revise|edit|finish)[\\t ]+${PATH_TOKEN}([^\\n]*)`, "i");
const PAST: Record<ReviseCommand["verb"], string> = {
  polish: "Polished",
  revise: "Revised",
  edit: "Edited",
  finish: "Finished",
};

/** The revise command in `text` and where it starts, or null when it has none. */
export function findReviseCommand(text: string): { index: number; command: ReviseCommand } | null {
  const m = REVISE.exec(text);
  const path = m?.[2] ? filePath(m[2]) : "";
  if (!m || !path) return null;
  const verb = (m[1] ?? "polish").toLowerCase() as ReviseCommand["verb"];
  const note = (m[3] ?? "")
    .trim()
    .replace(/^[:,-]\s*/, "")
    .replace(/[\s.!?]+$/, "");
  return { index: m.index, command: { verb, path, note } };
}

const pathKey = (path: string) => path.replace(/^\.?\/+/, "");

function isReadOf(step: ToolStep, path: string): boolean {
  const input = inputField(step.input, "path");
  return step.toolName === "read_file" && typeof input === "string" && pathKey(input) === path;
}

type FileState =
  | { kind: "whole"; lines: string[] }
  | { kind: "partial"; nextLine: number }
  | { kind: "failed"; reason: string }
  | { kind: "too_large"; bytes: number }
  | { kind: "cut" };

/** What the reads of one file so far show: all of it, the next line to read, or why not. */
function fileState(reads: readonly ToolStep[]): FileState {
  const lines = new Map<number, string>();
  let total = 0;
  for (const read of reads) {
    const result = read.result;
    if (!result) continue;
    if (result.status !== "ok") return { kind: "failed", reason: failureText(result) };
    const bytes = inputField(result.value, "bytes");
    if (typeof bytes === "number" && bytes > MAX_REVISE_BYTES) return { kind: "too_large", bytes };
    const totalLines = inputField(result.value, "totalLines");
    const content = inputField(result.value, "content");
    if (typeof totalLines !== "number" || typeof content !== "string") {
      return { kind: "failed", reason: "the read returned no line-numbered content" };
    }
    total = totalLines;
    for (const entry of content === "" ? [] : content.split("\n")) {
      const m = /^(\d+): ?(.*)$/.exec(entry);
      if (!m) continue;
      if (entry.endsWith(LONG_LINE_MARK)) return { kind: "cut" };
      lines.set(Number(m[1]), m[2] ?? "");
    }
  }
  let known = 0;
  while (lines.has(known + 1)) known++;
  if (known >= total) {
    return {
      kind: "whole",
      lines: Array.from({ length: total }, (_, i) => lines.get(i + 1) ?? ""),
    };
  }
  return { kind: "partial", nextLine: known + 1 };
}

export function stepRevise(ctx: StepContext, command: ReviseCommand): OfflineStep {
  for (const tool of ["read_file", "write_file"]) {
    if (!ctx.tools.has(tool)) return missingTool(`${command.verb} files`, tool);
  }
  const path = pathKey(command.path);
  const reads = ctx.steps.filter((s) => isReadOf(s, path));
  const write = ctx.steps.findLast(
    (s) => s.toolName === "write_file" && pathKey(String(inputField(s.input, "path"))) === path,
  );
  if (write?.result && write.result.status !== "ok") {
    return say(
      `I couldn't write ${code(path)}: ${failureText(write.result)}. The file was not changed.`,
    );
  }
  if (reads.length === 0) return call("read_file", { path });
  if (reads.some((r) => !r.result)) return say(`I am still waiting for ${code(path)}.`);
  const state = fileState(reads);
  switch (state.kind) {
    case "failed":
      return say(`I couldn't read ${code(path)}: ${state.reason}.`);
    case "too_large":
      return say(
        `${code(path)} is ${state.bytes} bytes; I ${command.verb} files of up to ` +
          `${MAX_REVISE_BYTES} bytes, so I left it unchanged.`,
      );
    case "cut":
      return say(
        `${code(path)} has a line longer than one read shows, so I left it unchanged rather ` +
          "than write back a cut line.",
      );
    case "partial":
      if (reads.length >= MAX_READS) {
        return say(`I could not read all of ${code(path)}, so I left it unchanged.`);
      }
      return call("read_file", { path, startLine: state.nextLine });
    case "whole": {
      const revision = reviseText(path, state.lines);
      if (!write) return call("write_file", { path, content: revision.text });
      if (!write.result) return say(`I am still waiting for ${code(path)} to be written.`);
      const note = command.note ? ` (${command.note})` : "";
      return say(`${PAST[command.verb]} ${code(path)}${note}: ${joinAnd(revision.changes)}.`);
    }
  }
}

function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}
