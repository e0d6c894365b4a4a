// The run journal's stored rows as its API returns them (lib/agents/journal-schemas.ts).
import type { Run, RunEvent } from "@/db/schema";
import {
  type RunEventView,
  type RunSummary,
  runEventViewSchema,
  runSummarySchema,
} from "./journal-schemas";

export function runSummaryOf(run: Run): RunSummary {
  return runSummarySchema.parse({
    id: run.id,
    status: run.status,
    startedAt: run.startedAt.toISOString(),
    endedAt: run.endedAt?.toISOString() ?? null,
    stepCount: run.stepCount,
  });
}

export function runEventViewOf(event: RunEvent): RunEventView {
  return runEventViewSchema.parse({
    seq: event.seq,
    type: event.type,
    agent: event.agent,
    invocationId: event.invocationId,
    at: event.createdAt.toISOString(),
    payload: event.payload,
  });
}
