// A reset between two steps of a run (trigger `threshold`): the request moves into the new
// session, the handoff carries the run's facts, and calls still awaiting approval are not run —
// the handoff lists them in needs_authorization and they read as denied in session N.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ChatSession, Message } from "@/db/schema";
import { denyPendingApprovals, pendingApprovalsOf } from "@/lib/agents/tool-parts";
import type { ContextPart } from "@/lib/chat/types";
import { NOT_RUN_AT_RESET, performReset } from "@/lib/context/reset";
import type { RunScope } from "./run-context";
import type { RunOutput } from "./run-output";
import { sessionAfterWaiting } from "./run-session";

export interface MidRunReset {
  scope: RunScope;
  model: LanguageModelV3;
  out: RunOutput;
  /** The session that ends; its message holds the steps so far and is already stored. */
  session: ChatSession;
  request: Message;
  reading: ContextPart;
  runId: string | null;
}

/**
 * The session the run goes on in, null when the reset failed or was cancelled, or `suspended`
 * when it stopped at a draft for the user's review (review `always`).
 */
export async function resetBetweenSteps(
  input: MidRunReset,
): Promise<ChatSession | null | "suspended"> {
  const { scope, out, session, request, reading } = input;
  const outcome = await performReset({
    userId: scope.userId,
    threadId: scope.threadId,
    from: session,
    trigger: "threshold",
    profile: scope.profile,
    modelId: scope.modelId,
    toolTokens: scope.toolTokens,
    model: input.model,
    moveFromSeq: request.seq,
    movedTokens: request.tokenCount,
    contextTokens: reading.inputTokens,
    contextWindow: reading.contextWindow,
    utilization: reading.utilization,
    midRun: true,
    review: scope.profile.reviewResets === "always",
    runId: input.runId,
    emit: (part) =>
      out.write({ type: "data-context-reset", id: `reset-${session.id}`, data: part }),
  });
  if (outcome.kind === "draft") return "suspended";
  let next: ChatSession | null = null;
  if (outcome.kind === "committed") next = outcome.session;
  else if (outcome.kind === "busy") {
    // Someone else (a manual reset) is ending this session: follow it if it commits.
    const after = await sessionAfterWaiting(scope, session, [request.id], (part) =>
      out.write({ type: "data-context-reset", id: `reset-${session.id}`, data: part }),
    );
    next = after.id === session.id ? null : after;
  }
  if (!next) return null;

  let denied: string[] = [];
  await out.takeMessage((message) => {
    denied = pendingApprovalsOf(message.parts).map((p) => p.toolCallId);
    if (denied.length === 0) return message;
    return {
      ...message,
      parts: denyPendingApprovals(message.parts, NOT_RUN_AT_RESET) as typeof message.parts,
    };
  });
  for (const toolCallId of denied) out.writeToClient({ type: "tool-output-denied", toolCallId });
  return next;
}
