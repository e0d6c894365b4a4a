// Manual resets (`POST /api/threads/{id}/reset`): the same reset as a threshold one, keyed by
// (thread, fromSession) so that repeated or concurrent requests all get the one session made.
import "server-only";
import { cancelReset, getReset } from "@/db/queries/resets";
import { getCurrentSession } from "@/db/queries/sessions";
import { getThread } from "@/db/queries/threads";
import type { ChatSession } from "@/db/schema";
import { resolveProfile } from "@/lib/agents/profiles";
import { getLanguageModel } from "@/lib/ai/providers";
import type { HandoffView } from "@/lib/chat/types";
import { BatonError } from "@/lib/errors";
import { committedSessionOf, performReset, waitForReset } from "./reset";
import { loadSessionContext, measureContext } from "./session-context";

export interface ManualResetResult {
  created: boolean;
  session: ChatSession;
  handoff: HandoffView;
}

/** A manual reset's outcome: its session, or the cancel the user asked for. */
export type ManualResetOutcome =
  | ({ cancelled?: false } & ManualResetResult)
  /** The user cancelled the reset (this request's or the one it waited for). */
  | { cancelled: true; fromSession: number };

/** A manual reset that must commit: a cancel is `conflict:reset_in_progress`. */
export async function resetThreadManually(input: {
  userId: string;
  threadId: string;
  fromSession: number;
}): Promise<ManualResetResult> {
  const outcome = await runManualReset(input);
  if (outcome.cancelled) throw new BatonError("conflict:reset_in_progress", "Cancelled.");
  return outcome;
}

/** The reset route's operation: a reset the user cancelled is an outcome, not an error. */
export async function runManualReset({
  userId,
  threadId,
  fromSession,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
}): Promise<ManualResetOutcome> {
  const thread = await getThread({ userId, threadId });
  if (!thread) throw new BatonError("not_found:thread", "Thread not found.");
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
  });
  if (outcome.kind === "committed") {
    return { created: !outcome.duplicate, session: outcome.session, handoff: outcome.handoff };
  }
  if (outcome.kind === "busy") {
    const reset = await waitForReset({ userId, threadId, fromSession });
    const done = reset ? await committedSessionOf(userId, reset) : null;
    if (done) return { created: false, session: done.session, handoff: done.handoff };
    if (reset?.state === "cancelled") return { cancelled: true, fromSession };
    throw new BatonError("conflict:reset_in_progress", "The reset did not complete; try again.");
  }
  // A cancel is an outcome the user asked for, not an error: the same answer the cancel got.
  if (outcome.kind === "cancelled") return { cancelled: true, fromSession };
  throw new BatonError("internal:server", outcome.reason);
}

export async function cancelThreadReset({
  userId,
  threadId,
  fromSession,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
}): Promise<{ cancelled: true; fromSession: number }> {
  const result = await cancelReset({ userId, threadId, fromSession });
  if (!result) throw new BatonError("not_found:session", "No reset from that session.");
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
