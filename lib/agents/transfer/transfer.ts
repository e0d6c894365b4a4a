// Carrying out an accepted transfer: the source's session ends and the target's begins
// (trigger `agent_handoff`, as stored), in one commit that also stores the brief as a handoff
// revision of the thread's key (kind `agent_handoff`) and makes the target the thread's agent.
// The revision's artifact is mapped from the brief and merged like any handoff's — the thread's
// pins, open tasks and plan, files and the last request carried, secrets masked — and the brief the target reads
// lists what the merge keeps.
import "server-only";
import { getDb } from "@/db/client";
import { getHandoffRevisionById } from "@/db/queries/handoff-reads";
import { acquireResetLease, finishResetWithoutCommit } from "@/db/queries/resets";
import { listTouchedPaths } from "@/db/queries/workspace";
import type { ChatSession, Message } from "@/db/schema";
import { messageText } from "@/lib/chat/request";
import type { AgentBrief, AgentHandoffPart, ContextPart, HandoffView } from "@/lib/chat/types";
import { applyRunFacts } from "@/lib/context/mechanical-facts";
import { handoffViewOf, loadSessionContext } from "@/lib/context/session-context";
import { withThreadPins } from "@/lib/context/thread-pins";
import { briefArtifact, renderBriefMarkdown } from "@/lib/handoff/agent-brief";
import { contentIdsFor } from "@/lib/handoff/content-id";
import { mergeMechanicalFacts } from "@/lib/handoff/merge";
import { redactArtifact } from "@/lib/handoff/redact";
import { commitResetHandoff } from "@/lib/handoff/write";
import type { RunScope } from "@/lib/runs/run-context";
import { currentInstance } from "@/lib/runtime/instance";
import type { AcceptedTransfer } from "./guard";

export interface TransferInput {
  /** The source agent's scope. */
  scope: RunScope;
  /** The session that ends (its messages, the source's included, are stored). */
  session: ChatSession;
  /** The user message the run answers: it moves into the target's session. */
  request: Message;
  accepted: AcceptedTransfer;
  reading: ContextPart;
  /** The run's transfer count (`handoffCount`, as stored) and step budget after this transfer. */
  run?: { id: string; handoffCount: number; maxSteps: number };
}

export interface Transfer {
  session: ChatSession;
  handoff: HandoffView;
  brief: AgentBrief;
  /** The user messages the commit moved into the target's session (the request first). */
  movedMessageIds: string[];
}

class TransferCommitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TransferCommitError";
  }
}

export async function transferToAgent(input: TransferInput): Promise<Transfer> {
  const { scope, session, request, accepted, reading } = input;
  const { userId, threadId } = scope;
  const instanceId = await currentInstance();
  const lease = await acquireResetLease({
    userId,
    threadId,
    fromSession: session.number,
    trigger: "agent_handoff",
    instanceId,
  });
  if (lease?.kind !== "acquired") {
    throw new TransferCommitError(
      lease ? "The session is being reset, so the transfer could not start." : "Thread not found.",
    );
  }
  try {
    const [ctx, filesModified] = await Promise.all([
      loadSessionContext({ userId, threadId, session, profile: scope.profile }),
      listTouchedPaths(getDb(), { userId, threadId, sessionId: session.id }),
    ]);
    const userTexts = ctx.rows.filter((m) => m.role === "user").map((m) => messageText(m.parts));
    const merged = await withThreadPins(
      applyRunFacts(
        mergeMechanicalFacts({
          artifact: briefArtifact(accepted.brief),
          previous: ctx.brief?.artifact ?? null,
          filesTouched: filesModified,
          lastUserRequest: userTexts.at(-1),
        }),
        { filesModified, plan: ctx.plan, pendingCalls: [] },
      ),
      { userId, threadId },
    );
    const { artifact, redactions } = redactArtifact(merged);
    // The brief the target reads keeps what the merge carried: every pin, every file touched.
    const brief: AgentBrief = {
      ...accepted.brief,
      mustPreserve: artifact.must_preserve,
      workspaceRefs: [...new Set([...accepted.brief.workspaceRefs, ...artifact.files_modified])],
    };
    const committed = await commitResetHandoff({
      userId,
      threadId,
      from: session,
      endTokens: reading.inputTokens,
      endUtilization: reading.utilization,
      trigger: "agent_handoff",
      model: accepted.modelId,
      profile: accepted.target.id,
      threadProfile: accepted.target.id,
      run: input.run,
      moveFromSeq: request.seq,
      instanceId,
      handoff: {
        artifact,
        // Redacted again at the handoff tables' choke point, the brief with it.
        markdown: renderBriefMarkdown(brief),
        contentIdFor: contentIdsFor(threadId, artifact),
        createdBy: `agent:${accepted.brief.from.id}`,
        kind: "session",
        model: accepted.modelId,
        profile: accepted.target.id,
        redactions,
        revisionKind: "agent_handoff",
        brief,
      },
    });
    if (committed.outcome !== "committed") {
      throw new TransferCommitError("The session ended another way before the transfer committed.");
    }
    const rev = await getHandoffRevisionById({
      ownerId: userId,
      revisionId: committed.handoffRevisionId,
    });
    if (!rev?.brief) throw new TransferCommitError("The committed brief could not be read.");
    return {
      session: committed.session,
      handoff: handoffViewOf(rev, rev.handoffKey),
      brief: rev.brief,
      movedMessageIds: committed.movedMessageIds,
    };
  } catch (error) {
    await finishResetWithoutCommit({
      threadId,
      fromSession: session.number,
      state: "failed",
      reason: "The transfer to another agent failed.",
    }).catch(() => undefined);
    throw error;
  }
}

/**
 * The stream's record of the transfer, the divider before a reload. Named for its stored part
 * type, `data-agent-handoff`.
 */
export function agentHandoffPart(from: ChatSession, transfer: Transfer): AgentHandoffPart {
  const { brief } = transfer;
  return {
    from: brief.from,
    to: brief.to,
    ...(brief.title ? { title: brief.title } : {}),
    ...(brief.reason ? { reason: brief.reason } : {}),
    oldSessionId: from.id,
    newSessionId: transfer.session.id,
    sessionNumber: transfer.session.number,
    handoff: transfer.handoff,
    movedMessageIds: transfer.movedMessageIds,
  };
}
