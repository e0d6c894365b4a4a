// The thread plan's shape: a short list of tasks with ids p1, p2, … and a status each. Shared by
// the database column, the update_plan tool, the plan API and the prompt block.
import { z } from "zod";

export const PLAN_ITEM_STATUSES = ["pending", "in_progress", "done"] as const;
export type PlanItemStatus = (typeof PLAN_ITEM_STATUSES)[number];

/** Plan ids are `p<N>`; the offline model's own todo ids are `t<N>`, so the two never collide. */
const PLAN_ID_PATTERN = /^p[1-9][0-9]{0,3}$/;
const MAX_PLAN_ITEMS = 100;
const MAX_PLAN_TASK_CHARS = 500;

export const planItemSchema = z.object({
  id: z.string().regex(PLAN_ID_PATTERN, "Plan item ids are p1, p2, p3, …"),
  task: z.string().trim().min(1).max(MAX_PLAN_TASK_CHARS),
  status: z.enum(PLAN_ITEM_STATUSES),
});
export type PlanItem = z.infer<typeof planItemSchema>;

export const planItemsSchema = z
  .array(planItemSchema)
  .max(MAX_PLAN_ITEMS)
  .refine((items) => new Set(items.map((i) => i.id)).size === items.length, {
    message: "Plan item ids must be unique.",
  });
