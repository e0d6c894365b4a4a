// The HandoffArtifact (schema_version 1, docs/handoffs.md): what a session writes for the next
// one. Model-written fields only; the envelope (key, revision, id, …) lives on the stored record.
import { z } from "zod";

export const HANDOFF_SCHEMA_VERSION = 1 as const;

const text = z.string().max(20_000);
const list = z.array(text).default([]);

const remainingTaskSchema = z.object({
  id: z.string().min(1).max(64),
  task: text,
});

export const handoffArtifactSchema = z.object({
  goal: text,
  state_summary: text,
  completed_work: list,
  in_progress: list,
  remaining_tasks: z.array(remainingTaskSchema).default([]),
  key_decisions: list,
  confirmed_facts: list,
  unknowns: list,
  must_preserve: list,
  files_modified: list,
  last_completed_step: text.default(""),
  next_step: text.default(""),
  needs_authorization: list,
});

export type HandoffArtifact = z.output<typeof handoffArtifactSchema>;
export type HandoffArtifactInput = z.input<typeof handoffArtifactSchema>;
export type RemainingTask = z.output<typeof remainingTaskSchema>;

/** Array fields in display order; shared by markdown rendering, trimming and merging. */
export const ARTIFACT_LIST_FIELDS = [
  "completed_work",
  "in_progress",
  "key_decisions",
  "confirmed_facts",
  "unknowns",
  "must_preserve",
  "files_modified",
  "needs_authorization",
] as const satisfies readonly (keyof HandoffArtifact)[];

export function emptyArtifact(goal = "", stateSummary = ""): HandoffArtifact {
  return handoffArtifactSchema.parse({ goal, state_summary: stateSummary });
}
