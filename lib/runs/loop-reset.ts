// Resets a run makes (trigger `threshold`): the one place that performs one, before the first
// call or between two steps, and the loop's move into the session a reset between steps made.
import "server-only";
import type { ChatSession } from "@/db/schema";
import { denyPendingApprovals, pendingApprovalsOf } from "@/lib/agents/tool-parts";
import type { ContextPart, ContextResetPart } from "@/lib/chat/types";
import { NOT_RUN_AT_RESET, performReset } from "@/lib/context/reset";
import { goOnIn, view } from "./loop-leg";
import { sealMessage, storeMessage } from "./loop-message";
import type { RunState } from "./loop-state";
import type { SessionView } from "./run-context";
import { currentSessionOr, sessionAfterWaiting } from "./run-session";
import type { LegEnd } from "./run-steps";

/**
 * Resets `from` for the run's request, which moves into the new session. Returns that session,
 * null when the run stays in `from` (the reset failed, was cancelled, or another request's reset
 * of it did not commit), or `suspended` when it stopped at a draft for the user's review
 * (review `always`).
 */
export async function resetForRun(
  s: RunState,
  from: ChatSession,
  reading: ContextPart,
  midRun: boolean,
): Promise<ChatSession | null | "suspended"> {
  const { scope } = s.agent;
  const { request } = s.input;
  const emit = (data: ContextResetPart) =>
    s.out.write({ type: "data-context-reset", id: `reset-${from.id}`, data });
  const outcome = await performReset({
    userId: scope.userId,
    threadId: scope.threadId,
    from,
    trigger: "threshold",
    profile: scope.profile,
    modelId: scope.modelId,
    toolTokens: scope.toolTokens,
    model: s.agent.model,
    moveFromSeq: request.seq,
    movedTokens: request.tokenCount,
    contextTokens: reading.inputTokens,
    contextWindow: reading.contextWindow,
    utilization: reading.utilization,
    ...(midRun ? { midRun } : {}),
    review: scope.profile.reviewResets === "always",
    runId: s.run?.id ?? null,
    emit,
  });
  if (outcome.kind === "draft") return "suspended";
  let next: ChatSession | null = null;
  if (outcome.kind === "committed") next = outcome.session;
  else if (outcome.kind === "busy") {
    // Another request (a manual reset, a queued message's) is ending this session: the request
    // waits for it like a queued one, and follows it if it commits.
    next = await sessionAfterWaiting(scope, from, [request.id], emit);
  }
  return next && next.id !== from.id ? next : null;
}

/**
 * A reset between two steps: the steps so far stay in session N's message, and the run goes on
 * in a new message in the new session. Calls still awaiting approval are not run — the handoff
 * lists them in needs_authorization and they read as denied in session N. Without a new session
 * the run goes on where it is (or ends at its approval), without trying again.
 */
export async function resetBetweenSteps(
  s: RunState,
  reading: ContextPart,
  end: LegEnd,
): Promise<SessionView | "approval" | "suspended"> {
  const next = await resetForRun(s, s.session, reading, true);
  if (next === "suspended") return next;
  if (!next) {
    s.inSession.resetFailed = true;
    await storeMessage(s, await s.out.takeMessage(), "complete");
    if (end === "approval") return "approval";
    // Re-read: the session row holds the usage the leg just recorded.
    s.session = await currentSessionOr(s.agent.scope, s.session);
    return view(s, s.session);
  }
  await denyAwaitingApprovals(s);
  await sealMessage(s);
  return goOnIn(s, next, {
    enteredByReset: true,
    resetFailed: s.inSession.resetFailed,
    continued: true,
  });
}

async function denyAwaitingApprovals(s: RunState): Promise<void> {
  let denied: string[] = [];
  await s.out.takeMessage((message) => {
    denied = pendingApprovalsOf(message.parts).map((p) => p.toolCallId);
    if (denied.length === 0) return message;
    return {
      ...message,
      parts: denyPendingApprovals(message.parts, NOT_RUN_AT_RESET) as typeof message.parts,
    };
  });
  for (const toolCallId of denied) s.out.writeToClient({ type: "tool-output-denied", toolCallId });
}
