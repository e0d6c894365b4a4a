// Secret masking for handoffs (docs/handoffs.md): every string field of an artifact goes through
// redactText (core/redact/engine.ts), which replaces secrets with `[REDACTED:<kind>]`; the report
// says which kind was found in which field, never the secret itself.
import { redactText } from "@/core/redact/engine";
import type { RedactionKind } from "@/core/redact/kinds";
import type { HandoffArtifact } from "./artifact";

export type { RedactionKind } from "@/core/redact/kinds";
export { redactText };

export interface Redaction {
  kind: RedactionKind;
  /** Path into the artifact, e.g. `confirmed_facts[2]` or `remaining_tasks[0].task`. */
  field: string;
}

/** Redacts every string field of the artifact, task ids included; the input is not mutated. */
export function redactArtifact(artifact: HandoffArtifact): {
  artifact: HandoffArtifact;
  redactions: Redaction[];
} {
  const redactions: Redaction[] = [];
  const field = (path: string, value: string): string => {
    const { text, kinds } = redactText(value);
    for (const kind of kinds) redactions.push({ kind, field: path });
    return text;
  };
  const list = (name: string, items: readonly string[]) =>
    items.map((item, i) => field(`${name}[${i}]`, item));

  const redacted: HandoffArtifact = {
    goal: field("goal", artifact.goal),
    state_summary: field("state_summary", artifact.state_summary),
    completed_work: list("completed_work", artifact.completed_work),
    in_progress: list("in_progress", artifact.in_progress),
    remaining_tasks: artifact.remaining_tasks.map((task, i) => ({
      id: field(`remaining_tasks[${i}].id`, task.id),
      task: field(`remaining_tasks[${i}].task`, task.task),
    })),
    key_decisions: list("key_decisions", artifact.key_decisions),
    confirmed_facts: list("confirmed_facts", artifact.confirmed_facts),
    unknowns: list("unknowns", artifact.unknowns),
    must_preserve: list("must_preserve", artifact.must_preserve),
    files_modified: list("files_modified", artifact.files_modified),
    last_completed_step: field("last_completed_step", artifact.last_completed_step),
    next_step: field("next_step", artifact.next_step),
    needs_authorization: list("needs_authorization", artifact.needs_authorization),
  };
  return { artifact: redacted, redactions };
}
