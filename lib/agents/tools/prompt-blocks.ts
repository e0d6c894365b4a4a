// The plan and workspace as marked blocks of the system prompt, rendered into every session so
// that work survives a reset. The format is deliberately plain — models and the offline model
// parse it — and is fixed:
//
//   <plan>
//   - [ ] p1 Pending task
//   - [~] p2 Task in progress
//   - [x] p3 Finished task
//   </plan>
//
// One line per item, in plan order: `- [<mark>] <id> <task>` with mark " " pending, "~"
// in_progress, "x" done; the task is on one line (whitespace runs collapsed). No items: no block.
//
//   <workspace>
//   3 files: notes.md, work/p1.md, work/p2.md
//   </workspace>
//
// Paths comma-separated in path order, at most WORKSPACE_SUMMARY_PATHS of them, then
// `, … and N more (list_files shows all)`. No files: no block. Tool results are not listed.
import type { PlanItem, PlanItemStatus } from "@/core/plan-items";

const PLAN_MARKS: Record<PlanItemStatus, string> = {
  pending: " ",
  in_progress: "~",
  done: "x",
};

const WORKSPACE_SUMMARY_PATHS = 50;

/** Matches one rendered plan line: [, mark, id, task]. */
const PLAN_LINE_PATTERN = /^- \[([ ~x])\] (p\d+) (.*)$/;

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export function renderPlanBlock(items: readonly PlanItem[]): string {
  if (items.length === 0) return "";
  const lines = items.map((i) => `- [${PLAN_MARKS[i.status]}] ${i.id} ${oneLine(i.task)}`);
  return `<plan>\n${lines.join("\n")}\n</plan>`;
}

/** Reads a plan block back (the inverse of renderPlanBlock); lines that do not match are skipped. */
export function parsePlanBlock(text: string): PlanItem[] {
  const block = /<plan>\n([\s\S]*?)\n?<\/plan>/.exec(text)?.[1] ?? "";
  const byMark = Object.fromEntries(
    Object.entries(PLAN_MARKS).map(([status, mark]) => [mark, status as PlanItemStatus]),
  );
  return block.split("\n").flatMap((line) => {
    const m = PLAN_LINE_PATTERN.exec(line);
    const status = m?.[1] === undefined ? undefined : byMark[m[1]];
    return m?.[2] && m[3] !== undefined && status ? [{ id: m[2], task: m[3], status }] : [];
  });
}

export function renderWorkspaceBlock(paths: readonly string[]): string {
  if (paths.length === 0) return "";
  const shown = paths.slice(0, WORKSPACE_SUMMARY_PATHS);
  const more = paths.length - shown.length;
  const noun = paths.length === 1 ? "file" : "files";
  const tail = more > 0 ? `, … and ${more} more (list_files shows all)` : "";
  return `<workspace>\n${paths.length} ${noun}: ${shown.join(", ")}${tail}\n</workspace>`;
}
