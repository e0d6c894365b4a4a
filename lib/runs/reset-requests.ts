// The reset routes' operations: the context engine resets, commits or cancels, and every handoff
// draft it ends on the way hands what waited for it (a parked run, queued messages) to the run
// engine, which answers it in the background.
import "server-only";
import {
  cancelManualReset,
  commitManualReset,
  type ManualResetOutcome,
  performManualReset,
} from "@/lib/context/manual-reset";
import type { ManualResetResult } from "@/lib/context/reset-result";
import { commitDraft } from "@/lib/context/review-reset";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { answerAfterDraftSoon } from "./after-draft";

interface ResetRequest {
  userId: string;
  threadId: string;
  fromSession: number;
}

/** `POST …/reset`: a reset the user cancelled is an outcome, not an error. */
export function runManualReset(
  request: ResetRequest & { review?: boolean },
): Promise<ManualResetOutcome> {
  return performManualReset({ ...request, afterDraft: answerAfterDraftSoon });
}

/** A manual reset that must commit: a cancel is `conflict:reset_in_progress`. */
export function resetThreadManually(request: ResetRequest): Promise<ManualResetResult> {
  return commitManualReset({ ...request, afterDraft: answerAfterDraftSoon });
}

/** `POST …/reset/cancel`: what waited for a cancelled draft goes on in session N. */
export function cancelThreadReset(
  request: ResetRequest,
): Promise<{ cancelled: true; fromSession: number }> {
  return cancelManualReset({ ...request, afterDraft: answerAfterDraftSoon });
}

/** `POST …/reset/commit`: the reviewed draft committed; what waited for it goes on in N+1. */
export function commitReviewedDraft(
  request: ResetRequest & { artifact: HandoffArtifact },
): Promise<ManualResetResult> {
  return commitDraft({ ...request, afterDraft: answerAfterDraftSoon });
}
