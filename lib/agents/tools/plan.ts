// update_plan: replaces the thread's plan (ids p1, p2, …). The plan survives resets and is
// rendered into every session's system prompt (prompt-blocks.ts).
import "server-only";
import { tool, zodSchema } from "ai";
import { z } from "zod";
import { PLAN_ITEM_STATUSES, type PlanItem, planItemsSchema } from "@/core/plan-items";
import { getDb } from "@/db/client";
import { replacePlan } from "@/db/queries/plans";
import { asToolResult, failure, type ToolContext } from "./context";

export interface UpdatePlanOutput {
  ok: true;
  items: PlanItem[];
  version: number;
}

// Built once: the SDK turns each into its JSON schema on first use and keeps it.
const updatePlanInput = zodSchema(
  z.object({
    items: z.array(
      z.object({
        id: z.string().describe("p1, p2, p3, …"),
        task: z.string(),
        status: z.enum(PLAN_ITEM_STATUSES),
      }),
    ),
  }),
);

export function createPlanTools(ctx: ToolContext) {
  return {
    update_plan: tool({
      description:
        "Replace this thread's plan with the given items (the whole list, every time). Ids are p1, p2, p3, …; status is pending, in_progress or done. Mark an item in_progress when you start it and done when it is finished.",
      inputSchema: updatePlanInput,
      execute: async ({ items }) =>
        asToolResult<UpdatePlanOutput>(async () => {
          const parsed = planItemsSchema.safeParse(items);
          if (!parsed.success) {
            const issue = parsed.error.issues[0];
            const where = issue?.path.length ? ` (items.${issue.path.join(".")})` : "";
            return failure(`The plan is invalid${where}: ${issue?.message ?? "bad items"}`);
          }
          const plan = await replacePlan((ctx.db ?? getDb)(), {
            userId: ctx.userId,
            threadId: ctx.threadId,
            items: parsed.data,
          });
          return { ok: true, items: plan.items, version: plan.version };
        }),
    }),
  };
}
