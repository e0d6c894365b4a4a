// Loads the thread's plan and workspace and renders them as the system prompt's blocks
// (format in prompt-blocks.ts). Read fresh for every session, so a reset always sees them.
import "server-only";
import type { PlanItem } from "@/core/plan-items";
import { getDb } from "@/db/client";
import type { Executor } from "@/db/executor";
import { getPromptWorkspace } from "@/db/queries/prompt-workspace";
import { renderPlanBlock, renderWorkspaceBlock } from "./prompt-blocks";

export interface WorkspacePromptContext {
  plan: PlanItem[];
  paths: string[];
  /** The blocks joined by a blank line; "" when there is no plan and no file. */
  text: string;
}

export async function loadWorkspacePromptContext(
  { userId, threadId }: { userId: string; threadId: string },
  db: Executor = getDb(),
): Promise<WorkspacePromptContext> {
  const { plan, paths } = await getPromptWorkspace(db, { userId, threadId });
  return workspacePromptContext(plan, paths);
}

/** The blocks of a plan and a file list already in hand (both empty for a thread just made). */
export function workspacePromptContext(plan: PlanItem[], paths: string[]): WorkspacePromptContext {
  const text = [renderPlanBlock(plan), renderWorkspaceBlock(paths)].filter(Boolean).join("\n\n");
  return { plan, paths, text };
}
