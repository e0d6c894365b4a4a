// How a run ends: finished (answered, stopped, out of steps, awaiting approval, failed),
// suspended at a draft under review, stopped for thrashing, or failed by an error. Each stores
// the message in flight, closes the run's row and journal, and closes the stream.
import "server-only";
import { finishRun } from "@/db/queries/runs";
import type { RunStatus } from "@/db/schema";
import type { ContextPart, MessageStatus } from "@/lib/chat/types";
import { storeMessage } from "./loop-message";
import type { RunState } from "./loop-state";
import { STATUS_OF, thrashPart } from "./run-request";
import type { LegEnd } from "./run-steps";

export type RunEnd =
  | { kind: "finished"; end: LegEnd }
  /** Parked at a draft under review (see suspend). */
  | { kind: "suspended" }
  /** A session this run's reset began filled up again at once. */
  | { kind: "thrash"; reading: ContextPart };

export function endRun(s: RunState, how: RunEnd): Promise<void> {
  switch (how.kind) {
    case "finished":
      return finish(s, how.end);
    case "suspended":
      return suspend(s);
    case "thrash":
      return stopForThrash(s, how.reading);
  }
}

async function finish(s: RunState, end: LegEnd): Promise<void> {
  const status = STATUS_OF[end];
  await closeRun(s, status.run, end === "failed" ? "model_failed" : null);
  // A stopped reply ends like any other (partial); only a failed one ends with its error.
  if (end !== "failed") writeFinish(s, status.message);
  await s.out.close();
}

/**
 * Parks the run at a draft under review: the message keeps its steps, the run waits
 * (`awaiting_review`) and this stream ends; the draft's end resumes it (lib/runs/after-draft.ts).
 */
async function suspend(s: RunState): Promise<void> {
  await storeMessage(s, await s.out.takeMessage(), "complete");
  await closeRun(s, "awaiting_review", null);
  writeFinish(s, "complete");
  await s.out.close();
}

async function stopForThrash(s: RunState, reading: ContextPart): Promise<void> {
  s.out.write({
    type: "data-context-reset",
    id: `reset-${s.session.id}`,
    data: thrashPart(s.session, reading, s.agent.scope.profile.resetThreshold),
  });
  await storeMessage(s, await s.out.takeMessage(), "complete");
  await closeRun(s, "reset_failed", "thrash");
  writeFinish(s, "complete");
  await s.out.close();
}

/** Keeps what was streamed, marked as failed, before the stream reports the error. */
export async function failRun(s: RunState): Promise<void> {
  const recorded = await s.out.close().catch(() => null);
  if (recorded) await storeMessage(s, recorded, "error").catch(() => undefined);
  await closeRun(s, "failed", "error").catch(() => undefined);
}

function writeFinish(s: RunState, status: MessageStatus): void {
  s.writer.write({ type: "finish", messageMetadata: { ...s.metadata, status } });
}

async function closeRun(
  s: RunState,
  status: Exclude<RunStatus, "running">,
  reason: string | null,
): Promise<void> {
  if (!s.run) return;
  await finishRun({
    userId: s.agent.scope.userId,
    runId: s.run.id,
    status,
    failureReason: reason,
  });
  await s.recorder?.ended(status, reason, s.run.handoffCount);
}
