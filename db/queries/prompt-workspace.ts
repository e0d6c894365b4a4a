// What a session's system prompt shows of the thread's workspace, in one statement: the plan's
// items and the paths of its live files (tool results excluded), ordered as listFiles orders
// them. Read before every model call, so it is one round trip rather than two.
import "server-only";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { PlanItem } from "@/core/plan-items";
import type { Executor } from "../executor";
import { ownedThread } from "../owned";
import { threadPlans, threads, workspaceFiles } from "../schema";

/** A json value as the driver gave it: parsed already, or its text. */
function parsed<T>(value: unknown, empty: T): T {
  if (value === null || value === undefined) return empty;
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

export async function getPromptWorkspace(
  db: Executor,
  { userId, threadId }: { userId: string; threadId: string },
): Promise<{ plan: PlanItem[]; paths: string[] }> {
  const plan = db
    .select({ items: threadPlans.items })
    .from(threadPlans)
    .where(eq(threadPlans.threadId, threadId));
  const live = and(
    eq(workspaceFiles.threadId, threadId),
    isNull(workspaceFiles.deletedAt),
    eq(workspaceFiles.kind, "file"),
  );
  const [row] = await db
    .select({
      plan: sql<unknown>`${plan}`,
      paths: sql<unknown>`(select json_agg(${workspaceFiles.path} order by ${workspaceFiles.path}) from ${workspaceFiles} where ${live})`,
    })
    .from(threads)
    .where(ownedThread(userId, threadId));
  return {
    plan: parsed<PlanItem[]>(row?.plan, []),
    paths: parsed<string[]>(row?.paths, []),
  };
}
