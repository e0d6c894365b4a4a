// A run waiting its turn before its first model call: a queued message waits out another
// request's reset, every request waits for the answers to the questions above it. Each returns
// the session the run goes on in.
import "server-only";
import { getMessage, updateMessage } from "@/db/queries/messages";
import { getAwaitingDraft } from "@/db/queries/reset-drafts";
import { getActiveReset, moveMessagesToSession } from "@/db/queries/resets";
import { earlierQuestionInFlight } from "@/db/queries/run-claims";
import { getCurrentSession } from "@/db/queries/sessions";
import { turnIsClear } from "@/db/queries/turn-gate";
import type { ChatSession, Message, ThreadReset } from "@/db/schema";
import type { ContextResetPart } from "@/lib/chat/types";
import { committedSessionOf, waitForReset } from "@/lib/context/reset";
import type { RunScope } from "./run-context";
import type { RunOutput } from "./run-output";

export async function currentSessionOr(scope: RunScope, fallback: ChatSession) {
  return (await getCurrentSession({ userId: scope.userId, threadId: scope.threadId })) ?? fallback;
}

/** How often a waiting run looks again at the reset or the run it waits for. */
const WAIT_POLL_MS = 100;

/**
 * Waits out a reset another request runs (a queued message, or a run that found the session
 * already being reset); returns the session the messages are answered in. With `emit`, the
 * reset's outcome is written as the terminal event of the stream's reset part.
 */
export async function sessionAfterWaiting(
  scope: RunScope,
  from: ChatSession,
  messageIds: string[],
  emit?: (part: ContextResetPart) => void,
): Promise<ChatSession> {
  const { userId, threadId } = scope;
  const reset = await waitForReset({ userId, threadId, fromSession: from.number });
  const committed = reset ? await committedSessionOf(userId, reset) : null;
  emit?.(outcomePart(from, reset, committed));
  if (!committed) return from; // cancelled or failed: answered in session N
  // A queued insert can land just after the commit moved the queue: move it too.
  await moveMessagesToSession({
    userId,
    threadId,
    ids: messageIds,
    sessionId: committed.session.id,
  });
  return committed.session;
}

/** The terminal event for a reset this stream waited for rather than ran. */
function outcomePart(
  from: ChatSession,
  reset: ThreadReset | null,
  committed: Awaited<ReturnType<typeof committedSessionOf>>,
): ContextResetPart {
  const base = { oldSessionId: from.id };
  if (committed) {
    return {
      event: "reset_complete",
      ...base,
      newSessionId: committed.session.id,
      sessionNumber: committed.session.number,
      handoff: committed.handoff,
      movedMessageIds: [],
    };
  }
  if (reset?.state === "cancelled") {
    return { event: "reset_cancelled", ...base, reason: reset.reason ?? "Cancelled." };
  }
  return {
    event: "reset_failed",
    ...base,
    reason: reset?.reason ?? "The reset was no longer running.",
  };
}

/**
 * A thread's questions are answered one after another, in the seq order of the questions: a run
 * waits while a reset of its session is in flight and while a run answers an earlier question.
 * So a reset's trigger is answered before the messages queued behind it, however the reset
 * ends, and every answer is stored (directly under its question) before later ones begin.
 */
async function waitForTurn(scope: RunScope, request: Message, runId: string): Promise<void> {
  const { userId, threadId } = scope;
  for (;;) {
    const reset = await getActiveReset({ userId, threadId });
    if (reset) {
      await waitForReset({ userId, threadId, fromSession: reset.fromSession });
      continue;
    }
    if (!(await earlierQuestionInFlight({ threadId, requestId: request.id, runId }))) return;
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}

/**
 * The session a run answers its request in: a queued request waits out the reset that is
 * running (and is answered in the session it made); every request waits for the answers to the
 * questions above it; a request a reset moved meanwhile follows.
 */
export async function enterSession(
  scope: RunScope,
  out: RunOutput,
  {
    request,
    session,
    queued,
    runId,
    fresh = false,
  }: {
    request: Message;
    session: ChatSession;
    queued: boolean;
    runId: string;
    /** The request created the thread: no question is above it and no reset can have moved it. */
    fresh?: boolean;
  },
): Promise<{ session: ChatSession; answering: string[]; parked?: boolean }> {
  if (fresh && !queued) return { session, answering: [request.id] };
  const { userId, threadId } = scope;
  let current = session;
  if (queued) {
    out.write({ type: "data-queued", id: `queued-${request.id}`, data: { messageId: request.id } });
    current = await sessionAfterWaiting(scope, current, [request.id]);
    // The reset it waited for stopped at a draft for review: it waits for that draft's end,
    // parked, rather than holding its request open.
    const draft = await getAwaitingDraft({ userId, threadId });
    if (draft?.fromSession === current.number)
      return { session: current, answering: [], parked: true };
  }
  // The common case in one statement: nothing to wait for, and nothing moved the question.
  const clear =
    !queued &&
    (await turnIsClear({ userId, threadId, requestId: request.id, runId, sessionId: session.id }));
  if (clear) return { session, answering: [request.id] };
  await waitForTurn(scope, request, runId);
  if (queued) {
    await updateMessage({ userId, threadId, id: request.id, patch: { status: "complete" } });
  }
  // A reset that committed while this request waited (or between our check and our insert)
  // ended the session it was stored in: it is answered in the session that reset made, and
  // moves there if the commit did not move it.
  const placed = await getMessage({ userId, threadId, id: request.id });
  const now = await currentSessionOr(scope, current);
  if (placed && placed.sessionId !== now.id) {
    await moveMessagesToSession({ userId, threadId, ids: [request.id], sessionId: now.id });
  }
  if (placed) current = now;
  // The answer sees the thread up to its own question, never the questions queued below it.
  return { session: current, answering: [request.id] };
}
