// Facts a handoff takes from the run, never from the model: the paths the session changed, the
// thread's plan, the step in flight and the calls still awaiting approval. Pure.

import type { PlanItem } from "@/core/plan-items";
import type { HandoffArtifact } from "@/lib/handoff/artifact";

export interface RunFacts {
  /** Paths written, edited or deleted in the session that ends (spilled results excluded). */
  filesModified: readonly string[];
  /** The thread's plan at the reset. */
  plan: readonly PlanItem[];
  /** Set when the reset happens between two steps of a run: what the run was doing. */
  stepInFlight?: string | null;
  /** One line per call that was awaiting approval and will not run. */
  pendingCalls: readonly string[];
}

const planLine = (item: PlanItem) => `${item.id}: ${item.task}`;

/** True when `text` names plan item `id` as a whole word (`p1` in "p1: …", not in "p10"). */
function mentionsId(text: string, id: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${id}(?![\\p{L}\\p{N}_])`, "u").test(text);
}

/**
 * What the run was in the middle of when a reset ended its session: the plan item in progress,
 * else the next pending one, else the request the run answers.
 */
export function stepInFlightOf(plan: readonly PlanItem[], request: string | undefined): string {
  const current = plan.find((i) => i.status === "in_progress");
  if (current) return `Continue ${planLine(current)} (in progress), then the rest of the plan.`;
  const next = plan.find((i) => i.status === "pending");
  if (next) return `Start ${planLine(next)}, then the rest of the plan.`;
  const text = request?.trim() ?? "";
  return text ? `Continue the task: ${text}` : "Continue the task.";
}

/**
 * The artifact with the run's facts applied over whatever the model wrote: `files_modified` is
 * exactly the session's paths; every plan item appears once, where its status puts it (pending
 * → `remaining_tasks`, in progress → `in_progress`, done → `completed_work`) and nowhere else;
 * a step in flight becomes `next_step`; pending calls join `needs_authorization`.
 */
export function applyRunFacts(artifact: HandoffArtifact, facts: RunFacts): HandoffArtifact {
  const planIds = facts.plan.map((i) => i.id);
  const namesPlanItem = (text: string) => planIds.some((id) => mentionsId(text, id));
  const byStatus = (status: PlanItem["status"]) =>
    facts.plan.filter((i) => i.status === status).map(planLine);

  const remaining = [
    ...artifact.remaining_tasks.filter((t) => !planIds.includes(t.id)),
    ...facts.plan.filter((i) => i.status === "pending").map((i) => ({ id: i.id, task: i.task })),
  ];
  const needs = [...artifact.needs_authorization];
  for (const call of facts.pendingCalls) if (!needs.includes(call)) needs.push(call);

  return {
    ...artifact,
    files_modified: [...new Set(facts.filesModified.filter((p) => p !== ""))],
    remaining_tasks: remaining,
    in_progress: [
      ...artifact.in_progress.filter((s) => !namesPlanItem(s)),
      ...byStatus("in_progress"),
    ],
    completed_work: [
      ...artifact.completed_work.filter((s) => !namesPlanItem(s)),
      ...byStatus("done"),
    ],
    next_step: facts.stepInFlight ?? artifact.next_step,
    needs_authorization: needs,
  };
}
