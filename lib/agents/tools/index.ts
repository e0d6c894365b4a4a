// The built-in tools of a run, and the kind of each. The run loop builds the set per session
// (createBuiltinTools). TOOL_KINDS is the table of kinds (docs/workspace.md); an effectful tool
// asks for approval itself (its `needsApproval`), so nothing reads the table at run time.
//
// Results: every tool returns `{ ok: true, … }` or `{ ok: false, error }` (an error the model
// reads and can act on — a bad path, a limit, a missing match — never an exception). Results
// over the spill threshold come back as a SpilledResult instead (see spill.ts); the factory
// applies that itself, so the run loop must not wrap these tools again.
import "server-only";
import type { BuiltinToolName } from "@/core/tool-names";
import type { ToolContext, ToolKind } from "./context";
import { createPinTools } from "./pins";
import { createPlanTools } from "./plan";
import { createRecallTools } from "./recall";
import { withSpill } from "./spill";
import { createWorkspaceTools } from "./workspace";

export type { ToolContext } from "./context";
export { withSpill } from "./spill";

export const TOOL_KINDS = {
  list_files: "readOnly",
  read_file: "readOnly",
  // Writes and edits stay inside the thread's versioned workspace: every earlier version is kept.
  write_file: "readOnly",
  edit_file: "readOnly",
  delete_file: "effectful",
  update_plan: "readOnly",
  search_history: "readOnly",
  // It only changes what the next handoff carries; a person can unpin at any time.
  pin: "readOnly",
} as const satisfies Record<BuiltinToolName, ToolKind>;

export function createBuiltinTools(ctx: ToolContext) {
  const workspace = createWorkspaceTools(ctx);
  const plan = createPlanTools(ctx);
  const recall = createRecallTools(ctx);
  const pins = createPinTools(ctx);
  return {
    list_files: withSpill("list_files", workspace.list_files, ctx),
    read_file: workspace.read_file,
    write_file: withSpill("write_file", workspace.write_file, ctx),
    edit_file: withSpill("edit_file", workspace.edit_file, ctx),
    delete_file: withSpill("delete_file", workspace.delete_file, ctx),
    update_plan: withSpill("update_plan", plan.update_plan, ctx),
    // Bounded by its own limits (a few short snippets), like read_file.
    search_history: recall.search_history,
    pin: pins.pin,
  } satisfies Record<BuiltinToolName, unknown>;
}

export type BuiltinTools = ReturnType<typeof createBuiltinTools>;
