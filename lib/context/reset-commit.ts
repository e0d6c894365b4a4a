// The commit step of a context reset (docs/context-engine.md): one transaction ends session N
// with the prepared handoff as revision N and starts N+1; then runs parked on an approval in N
// are settled and the stream hears `reset_complete`. A threshold, manual or reviewed reset ends here.
import "server-only";
import { redactText } from "@/core/redact/engine";
import { getHandoffRevisionById } from "@/db/queries/handoff-reads";
import type { CommitResetInput } from "@/db/queries/reset-commit";
import { getSessionById } from "@/db/queries/resets";
import { settleAwaitingRuns } from "@/db/queries/runs";
import type { ChatSession, ResetDraft, ResetStats, ThreadReset } from "@/db/schema";
import type { Profile } from "@/lib/agents/profiles";
import { denyPendingApprovals } from "@/lib/agents/tool-parts";
import type { ContextResetPart, HandoffView, SessionTrigger } from "@/lib/chat/types";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { contentIdsFor } from "@/lib/handoff/content-id";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { type Redaction, redactArtifact } from "@/lib/handoff/redact";
import type { DroppedItem } from "@/lib/handoff/trim";
import { commitResetHandoff } from "@/lib/handoff/write";
import { messageTokenCount } from "./message-tokens";
import { handoffViewOf } from "./session-context";

export type ResetOutcome =
  | {
      kind: "committed";
      session: ChatSession;
      handoff: HandoffView;
      movedMessageIds: string[];
      /** True when this call found a reset another request had already committed. */
      duplicate: boolean;
    }
  | { kind: "busy"; reset: ThreadReset }
  /** A review was asked for: the draft is stored (or was already) and awaits the user. */
  | { kind: "draft"; draft: ResetDraft; created: boolean }
  /** A plain reset of a session whose draft awaits review. */
  | { kind: "awaiting_review"; reset: ThreadReset }
  | { kind: "cancelled" | "failed"; reason: string };

/** What a call that was awaiting approval at a reset reads as its result. */
export const NOT_RUN_AT_RESET =
  "Not run: the session ended (context reset) before this call was approved. Resuming is not permission: it must be asked for again in the new session.";

export async function committedOutcome(
  userId: string,
  reset: ThreadReset,
): Promise<Extract<ResetOutcome, { kind: "committed" }> | null> {
  if (!reset.newSessionId) return null;
  const session = await getSessionById({ userId, sessionId: reset.newSessionId });
  if (!session?.handoffRevisionId) return null;
  const rev = await getHandoffRevisionById({
    ownerId: userId,
    revisionId: session.handoffRevisionId,
  });
  if (!rev) return null;
  return {
    kind: "committed",
    session,
    handoff: handoffViewOf(rev, rev.handoffKey),
    movedMessageIds: [],
    duplicate: true,
  };
}

/** What the prepare step gives the commit (or the draft): the handoff, bounded and masked. */
export interface PreparedReset {
  fits: true;
  artifact: HandoffArtifact;
  dropped: DroppedItem[];
  redactions: Redaction[];
  source: ResetStats["source"];
  writerTokens: number;
  startTokens: number;
}

// What was not carried is stored masked, like the artifact it was cut from.
export const maskedDropped = (dropped: readonly DroppedItem[]) =>
  dropped.map((d) => ({ field: d.field, item: redactText(d.item).text }));
export interface CommitPreparedInput {
  userId: string;
  threadId: string;
  from: ChatSession;
  trigger: SessionTrigger;
  profile: Profile;
  modelId: string;
  moveFromSeq: number | null;
  contextTokens: number;
  contextWindow: number;
  utilization: number;
  emit?: (part: ContextResetPart) => void;
  /** A reviewed draft: the reset awaits review rather than holding this instance's lease. */
  fromDraft?: boolean;
  alsoInCommit?: CommitResetInput["alsoInCommit"];
}

/** The commit step: session N ends with the prepared handoff as revision N, N+1 starts. */
export async function commitPrepared(
  input: CommitPreparedInput,
  prepared: PreparedReset,
  at: { instanceId: string; startedAt: number },
): Promise<ResetOutcome> {
  const { userId, threadId, from, profile } = input;
  const emit = input.emit ?? (() => {});
  const base = { oldSessionId: from.id, threshold: profile.resetThreshold };
  const { artifact } = prepared;
  const committed = await commitResetHandoff({
    userId,
    threadId,
    from,
    endTokens: input.contextTokens,
    endUtilization: input.utilization,
    trigger: input.trigger,
    model: input.modelId,
    profile: profile.id,
    moveFromSeq: input.moveFromSeq,
    instanceId: at.instanceId,
    fromDraft: input.fromDraft,
    alsoInCommit: input.alsoInCommit,
    resetStats: {
      durationMs: Date.now() - at.startedAt,
      startTokens: prepared.startTokens,
      contextWindow: input.contextWindow,
      source: prepared.source,
      writerTokens: prepared.writerTokens,
    },
    handoff: {
      artifact,
      markdown: renderHandoffMarkdown(artifact),
      contentIdFor: contentIdsFor(threadId, artifact),
      createdBy: `session:${from.id}`,
      kind: "session",
      model: input.modelId,
      profile: profile.id,
      redactions: prepared.redactions,
      dropped: maskedDropped(prepared.dropped),
    },
  });
  if (committed.outcome !== "committed") {
    if (input.fromDraft && committed.reset.state === "committed") {
      const done = await committedOutcome(userId, committed.reset);
      if (done) return done;
    }
    const reason =
      committed.outcome === "cancelled" ? "Cancelled." : "The reset was no longer running.";
    emit({ event: "reset_cancelled", ...base, reason });
    return { kind: "cancelled", reason };
  }
  const rev = await getHandoffRevisionById({
    ownerId: userId,
    revisionId: committed.handoffRevisionId,
  });
  if (!rev) throw new Error("committed handoff revision not found");
  // A run parked on an approval in session N will not get its answer: its calls read as
  // denied (not run), and the handoff listed them in needs_authorization.
  await settleAwaitingRuns({
    userId,
    threadId,
    failureReason: "session_ended",
    settle: (message) => {
      const parts = denyPendingApprovals(message.parts, NOT_RUN_AT_RESET);
      return { parts, tokenCount: messageTokenCount(parts, input.modelId) };
    },
  });
  const outcome = {
    kind: "committed" as const,
    session: committed.session,
    handoff: handoffViewOf(rev, rev.handoffKey),
    movedMessageIds: committed.movedMessageIds,
    duplicate: false,
  };
  emitComplete(emit, base, outcome);
  return outcome;
}

export function emitComplete(
  emit: (part: ContextResetPart) => void,
  base: { oldSessionId: string; threshold: number },
  outcome: Extract<ResetOutcome, { kind: "committed" }>,
) {
  emit({
    event: "reset_complete",
    ...base,
    newSessionId: outcome.session.id,
    sessionNumber: outcome.session.number,
    // Read back from the masked revision; masked again here because this part is stored in the
    // message and shown on the share page, so no later change upstream can put a secret there.
    handoff: maskedView(outcome.handoff),
    movedMessageIds: outcome.movedMessageIds,
  });
}

function maskedView(view: HandoffView): HandoffView {
  const { artifact, redactions } = redactArtifact(view.artifact);
  if (redactions.length === 0) return view;
  return { ...view, artifact, markdown: renderHandoffMarkdown(artifact) };
}

export async function committedSessionOf(
  userId: string,
  reset: ThreadReset,
): Promise<Extract<ResetOutcome, { kind: "committed" }> | null> {
  return reset.state === "committed" ? committedOutcome(userId, reset) : null;
}
