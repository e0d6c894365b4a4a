import "server-only";
import { and, eq, sql } from "drizzle-orm";
import type { PlanItem } from "@/core/plan-items";
import { WorkspaceError } from "@/core/workspace/errors";
import type { Executor } from "../executor";
import { inOwnedThread, ownedThread } from "../owned";
import { type ThreadPlan, threadPlans, threads } from "../schema";

// The thread's plan: one row per thread, replaced whole. Scoped by the thread's owner.

export async function getPlan(
  db: Executor,
  { userId, threadId }: { userId: string; threadId: string },
): Promise<ThreadPlan | null> {
  const [row] = await db
    .select()
    .from(threadPlans)
    .where(and(eq(threadPlans.threadId, threadId), inOwnedThread(userId, threadPlans.threadId)));
  return row ?? null;
}

/** Replaces the plan (creating it on first use); `version` counts the replacements. */
export async function replacePlan(
  db: Executor,
  { userId, threadId, items }: { userId: string; threadId: string; items: PlanItem[] },
): Promise<ThreadPlan> {
  return db.transaction(async (tx) => {
    const [owned] = await tx
      .select({ id: threads.id })
      .from(threads)
      .where(ownedThread(userId, threadId));
    if (!owned) throw new WorkspaceError("thread_not_found", "Thread not found.");
    const now = new Date();
    const [row] = await tx
      .insert(threadPlans)
      .values({ threadId, items, version: 1, updatedAt: now })
      .onConflictDoUpdate({
        target: threadPlans.threadId,
        set: { items, version: sql`${threadPlans.version} + 1`, updatedAt: now },
      })
      .returning();
    if (!row) throw new Error("thread plan was not stored");
    return row;
  });
}
