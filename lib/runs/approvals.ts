// The user's answers to tool approvals. An answer arrives as a new chat request carrying the
// assistant message back; only its approval answers are read, and only for calls pending in
// this thread's waiting run — the stored message stays the truth for everything else. The first
// answer wins: a second one (another tab) is refused with what the first decided.
import "server-only";
import { BatonError } from "@/core/errors";
import { getMessage } from "@/db/queries/messages";
import { claimAwaitingRun, getAwaitingRun, settleAwaitingRuns } from "@/db/queries/runs";
import { getCurrentSession } from "@/db/queries/sessions";
import type { Message, Run } from "@/db/schema";
import {
  type ApprovalAnswer,
  answerApprovals,
  approvalOutcomes,
  denyPendingApprovals,
  pendingApprovalsOf,
} from "@/lib/agents/tool-parts";
import { messageTokenCount } from "@/lib/context/message-tokens";
import { currentInstance } from "@/lib/runtime/instance";

/** What a call reads as its result when the user moved on without answering it. */
const UNANSWERED_REASON =
  "Not run: the user sent a new message instead of answering this approval request.";
/** A call of the same step the answer left out. */
const LEFT_OUT_REASON = "Not run: the answer to this step gave no decision for this call.";

export interface ApprovalReply {
  /** The assistant message the answers were given in. */
  messageId: string;
  answers: ApprovalAnswer[];
  /** Approval ids answered "Allow for this session" (their tool is granted when approved). */
  allowForSession: readonly string[];
}

export interface ClaimedApprovals {
  run: Run;
  message: Message;
  /** Calls approved by this answer: the SDK runs them before the next step. */
  approvedCallIds: Set<string>;
}

export async function claimApprovals({
  userId,
  threadId,
  modelId,
  reply,
}: {
  userId: string;
  threadId: string;
  modelId: string;
  reply: ApprovalReply;
}): Promise<ClaimedApprovals> {
  const [run, session] = await Promise.all([
    getAwaitingRun({ userId, threadId }),
    getCurrentSession({ userId, threadId }),
  ]);
  if (!session) throw new BatonError("not_found:thread", "Thread not found.");
  if (!run || run.messageId !== reply.messageId) return refuse(userId, threadId, reply);

  const approved = new Set<string>();
  const claim = await claimAwaitingRun({
    userId,
    threadId,
    runId: run.id,
    instanceId: await currentInstance(),
    settle: (message) => {
      if (message.sessionId !== session.id) {
        throw new BatonError(
          "conflict:approval",
          "That approval belongs to a session that has ended; it will be asked again.",
        );
      }
      const pending = pendingApprovalsOf(message.parts);
      const answers = new Map<string, ApprovalAnswer>();
      for (const answer of reply.answers) {
        if (pending.some((p) => p.approvalId === answer.approvalId)) {
          answers.set(answer.approvalId, answer);
        }
      }
      if (answers.size === 0) {
        throw new BatonError("conflict:approval", "None of these approvals is pending.");
      }
      const parts = answerApprovals(message.parts, answers, LEFT_OUT_REASON);
      const grants = new Set<string>();
      for (const call of pending) {
        if (answers.get(call.approvalId)?.approved !== true) continue;
        approved.add(call.toolCallId);
        if (reply.allowForSession.includes(call.approvalId)) grants.add(call.toolName);
      }
      return { parts, tokenCount: messageTokenCount(parts, modelId), grants: [...grants] };
    },
  });
  if (!claim.claimed) return refuse(userId, threadId, reply);
  return { run: claim.run, message: claim.message, approvedCallIds: approved };
}

/** A reply that finds nothing to answer: say how each approval it names was settled. */
async function refuse(userId: string, threadId: string, reply: ApprovalReply): Promise<never> {
  const message = await getMessage({ userId, threadId, id: reply.messageId });
  const outcomes = approvalOutcomes(message?.parts ?? []);
  const named = reply.answers.map((a) => ({
    id: a.approvalId,
    outcome: outcomes.get(a.approvalId),
  }));
  const known = named.filter((n) => n.outcome !== undefined && n.outcome !== "pending");
  if (known.length === 0) {
    throw new BatonError("conflict:approval", "None of these approvals is pending.");
  }
  const summary = known.map((n) => n.outcome).join(", ");
  throw new BatonError("conflict:approval", `This approval was already answered: ${summary}.`, {
    approvals: known.map((n) => `${n.id}: ${n.outcome}`),
  });
}

/**
 * A new message while a run waits for approval: the waiting calls are denied with a result the
 * model reads (a provider needs a result for every call), and the run ends.
 */
export async function denyUnansweredApprovals({
  userId,
  threadId,
  modelId,
}: {
  userId: string;
  threadId: string;
  modelId: string;
}): Promise<void> {
  await settleAwaitingRuns({
    userId,
    threadId,
    failureReason: "approval_unanswered",
    settle: (message) => {
      const parts = denyPendingApprovals(message.parts, UNANSWERED_REASON);
      return { parts, tokenCount: messageTokenCount(parts, modelId) };
    },
  });
}
