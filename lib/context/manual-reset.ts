// Manual resets (`POST /api/threads/{id}/reset`): the same reset as a threshold one, keyed by
// (thread, fromSession) so that repeated or concurrent requests all get the one session made. A
// draft a request ends (expired, cancelled) is reported to the caller's `afterDraft`.
import "server-only";
import { BatonError } from "@/core/errors";
import { getResetDraft } from "@/db/queries/reset-drafts";
import { cancelReset, getReset } from "@/db/queries/resets";
import { getCurrentSession } from "@/db/queries/sessions";
import { getThread } from "@/db/queries/threads";
import { resolveProfile } from "@/lib/agents/profiles";
import { getLanguageModel } from "@/lib/ai/providers";
import { draftViewOf } from "@/lib/chat/draft-view";
import type { DraftView } from "@/lib/chat/types";
import { type AfterDraft, endedDraft } from "./draft-end";
import { committedSessionOf, performReset, waitForReset } from "./reset";
import type { ManualResetResult } from "./reset-result";
import { expireThreadDrafts } from "./review-reset";
import { loadSessionContext, measureContext } from "./session-context";

/** A manual reset's outcome: its session, its draft for review, or the cancel the user asked for. */
export type ManualResetOutcome =
  | ({ cancelled?: false; draft?: undefined } & ManualResetResult)
  /** Asked with `review`: the handoff drafted for the user, not committed yet. */
  | { cancelled?: false; draft: DraftView }
  /** The user cancelled the reset (this request's or the one it waited for). */
  | { cancelled: true; fromSession: number };

/** A manual reset that must commit: a cancel is `conflict:reset_in_progress`. */
export async function commitManualReset(input: {
  userId: string;
  threadId: string;
  fromSession: number;
  afterDraft: AfterDraft;
}): Promise<ManualResetResult> {
  const outcome = await performManualReset(input);
  if (outcome.cancelled) throw new BatonError("conflict:reset_in_progress", "Cancelled.");
  if (outcome.draft) throw awaitingReview();
  return outcome;
}

/** The reset route's operation: a reset the user cancelled is an outcome, not an error. */
export async function performManualReset({
  userId,
  threadId,
  fromSession,
  review = false,
  afterDraft,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
  /** Stop at the draft for the user to review (answered 202 with it). */
  review?: boolean;
  afterDraft: AfterDraft;
}): Promise<ManualResetOutcome> {
  const thread = await getThread({ userId, threadId });
  if (!thread) throw new BatonError("not_found:thread", "Thread not found.");
  await expireThreadDrafts(userId, threadId, afterDraft);
  const current = await getCurrentSession({ userId, threadId });
  if (!current) throw new BatonError("not_found:thread", "Thread not found.");

  if (fromSession !== current.number) {
    // A retry after the reset committed: answer with the session it made.
    const earlier = await getReset({ userId, threadId, fromSession });
    const done = earlier ? await committedSessionOf(userId, earlier) : null;
    if (done) return { created: false, session: done.session, handoff: done.handoff };
    throw new BatonError(
      fromSession > current.number ? "not_found:session" : "conflict:reset_committed",
      `Session ${fromSession} is not the thread's current session (${current.number}).`,
    );
  }

  const profile = await resolveProfile({ userId, profileId: thread.profile });
  const ctx = await loadSessionContext({ userId, threadId, session: current, profile });
  const context = await measureContext({
    session: current,
    system: ctx.system,
    modelId: thread.model,
    profile,
  });
  const outcome = await performReset({
    userId,
    threadId,
    from: current,
    trigger: "manual",
    profile,
    modelId: thread.model,
    model: getLanguageModel(thread.model),
    moveFromSeq: null,
    movedTokens: 0,
    contextTokens: context.inputTokens,
    contextWindow: context.contextWindow,
    utilization: context.utilization,
    review,
  });
  if (outcome.kind === "draft") return { draft: draftViewOf(outcome.draft) };
  if (outcome.kind === "awaiting_review") throw awaitingReview();
  if (outcome.kind === "committed") {
    return { created: !outcome.duplicate, session: outcome.session, handoff: outcome.handoff };
  }
  if (outcome.kind === "busy") {
    const reset = await waitForReset({ userId, threadId, fromSession });
    const done = reset ? await committedSessionOf(userId, reset) : null;
    if (done) return { created: false, session: done.session, handoff: done.handoff };
    if (reset?.state === "cancelled") return { cancelled: true, fromSession };
    if (reset?.state === "awaiting_review") {
      const draft = review ? await getResetDraft({ userId, threadId, fromSession }) : null;
      if (!draft) throw awaitingReview();
      return { draft: draftViewOf(draft) };
    }
    throw new BatonError("conflict:reset_in_progress", "The reset did not complete; try again.");
  }
  // A cancel is an outcome the user asked for, not an error: the same answer the cancel got.
  if (outcome.kind === "cancelled") return { cancelled: true, fromSession };
  throw new BatonError("internal:server", outcome.reason);
}

export async function cancelManualReset({
  userId,
  threadId,
  fromSession,
  afterDraft,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
  afterDraft: AfterDraft;
}): Promise<{ cancelled: true; fromSession: number }> {
  await expireThreadDrafts(userId, threadId, afterDraft);
  const result = await cancelReset({ userId, threadId, fromSession });
  if (!result) throw new BatonError("not_found:session", "No reset from that session.");
  // What waited for the draft goes on in session N.
  if (result.draft) {
    const draft = await getResetDraft({ userId, threadId, fromSession });
    if (draft) afterDraft(endedDraft(userId, draft, "cancelled"));
  }
  if (result.outcome === "already_committed") {
    throw new BatonError("conflict:reset_committed", "The reset has already completed.");
  }
  // Cancelling a reset that is already cancelled answers the same outcome again.
  if (result.outcome === "not_running" && result.reset.state === "cancelled") {
    return { cancelled: true, fromSession };
  }
  if (result.outcome === "not_running") {
    throw new BatonError("conflict:reset_committed", "That reset is no longer running.");
  }
  return { cancelled: true, fromSession };
}

const awaitingReview = () =>
  new BatonError(
    "conflict:reset_awaiting_review",
    "A handoff drafted for this session awaits review: commit or cancel it first.",
  );
