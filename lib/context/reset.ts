// A context reset (docs/context-engine.md): lease, handoff written by the model outside any
// transaction, redaction, the fit check, one commit, and the events the stream carries.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { convertToModelMessages } from "ai";
import { getDb } from "@/db/client";
import { getHandoffRevisionById } from "@/db/queries/handoff-reads";
import {
  acquireResetLease,
  commitReset,
  finishResetWithoutCommit,
  getResetLiveness,
  getSessionById,
} from "@/db/queries/resets";
import { settleAwaitingRuns } from "@/db/queries/runs";
import { listTouchedPaths } from "@/db/queries/workspace";
import type { ChatSession, ThreadReset } from "@/db/schema";
import type { Profile } from "@/lib/agents/profiles";
import { builtinToolTokens, continueLineTokens } from "@/lib/agents/run-context";
import {
  denyPendingApprovals,
  describePendingCall,
  pendingApprovalsOf,
} from "@/lib/agents/tool-parts";
import { estimateTokens } from "@/lib/ai/tokens";
import { messageText } from "@/lib/chat/request";
import type { ContextResetPart, HandoffView, SessionTrigger } from "@/lib/chat/types";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { consolidateArtifact } from "@/lib/handoff/consolidate";
import { contentIdsFor } from "@/lib/handoff/content-id";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { redactArtifact } from "@/lib/handoff/redact";
import { type DroppedItem, neverDroppedPart, trimArtifactToFit } from "@/lib/handoff/trim";
import { log } from "@/lib/log";
import { timeReset } from "@/lib/metrics";
import { redactText } from "@/lib/redact/engine";
import { currentInstance } from "@/lib/runtime/instance";
import { writeHandoffArtifact } from "./handoff-writer";
import { applyRunFacts, stepInFlightOf } from "./mechanical-facts";
import { messageTokenCount } from "./message-tokens";
import { watchReset } from "./reset-watch";
import {
  carriedOverBlockOf,
  handoffViewOf,
  loadSessionContext,
  systemPromptFor,
} from "./session-context";
import { withThreadPins } from "./thread-pins";

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
  | { kind: "cancelled" | "failed"; reason: string };

export interface ResetInput {
  userId: string;
  threadId: string;
  from: ChatSession;
  trigger: SessionTrigger;
  profile: Profile;
  modelId: string;
  model: LanguageModelV3;
  /** Seq of the user message that triggered the reset (it and later user messages move). */
  moveFromSeq: number | null;
  /** Tokens of the messages that will move into the new session (for the fit check). */
  movedTokens: number;
  contextTokens: number;
  contextWindow: number;
  utilization: number;
  /**
   * Set when the reset happens between two steps of a run: the handoff's `next_step` is then the
   * step in flight, and the next session's prompt also holds the continue line.
   */
  midRun?: boolean;
  /** What the tool definitions of the next session's calls cost (the built-in tools' by default). */
  toolTokens?: number;
  emit?: (part: ContextResetPart) => void;
}

/** What a call that was awaiting approval at a reset reads as its result. */
export const NOT_RUN_AT_RESET =
  "Not run: the session ended (context reset) before this call was approved. Resuming is not permission: it must be asked for again in the new session.";

async function committedOutcome(
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

/** One reset, timed and counted by trigger and outcome (lib/metrics). */
export function performReset(input: ResetInput): Promise<ResetOutcome> {
  return timeReset(input.trigger, () => runReset(input));
}

async function runReset(input: ResetInput): Promise<ResetOutcome> {
  const { userId, threadId, from, profile } = input;
  const emit = input.emit ?? (() => {});
  const startedAt = Date.now();
  const base = { oldSessionId: from.id, threshold: profile.resetThreshold };
  emit({ event: "reset_starting", ...base, utilization: input.utilization });

  const instanceId = await currentInstance();
  const lease = await acquireResetLease({
    userId,
    threadId,
    fromSession: from.number,
    trigger: input.trigger,
    instanceId,
  });
  if (!lease) return { kind: "failed", reason: "Thread not found." };
  if (lease.kind === "committed") {
    const done = await committedOutcome(userId, lease.reset);
    if (done) {
      emitComplete(emit, base, done);
      return done;
    }
    return { kind: "failed", reason: "The committed reset's session could not be read." };
  }
  if (lease.kind === "busy") return { kind: "busy", reset: lease.reset };
  emit({ event: "input_blocked", ...base });

  const watch = watchReset({ userId, threadId, fromSession: from.number, instanceId });
  try {
    const [ctx, filesModified] = await Promise.all([
      loadSessionContext({ userId, threadId, session: from, profile }),
      listTouchedPaths(getDb(), { userId, threadId, sessionId: from.id }),
    ]);
    const userTexts = ctx.rows.filter((m) => m.role === "user").map((m) => messageText(m.parts));
    const written = await writeHandoffArtifact({
      model: input.model,
      system: ctx.system,
      messages: await convertToModelMessages(ctx.history, { ignoreIncompleteToolCalls: true }),
      previous: ctx.brief?.artifact ?? null,
      userTexts,
      filesTouched: filesModified,
      lastUserRequest: userTexts.at(-1),
      abortSignal: watch.signal,
    });
    watch.stop();
    // Facts from the run, never from the model: they override what it wrote.
    const withFacts = applyRunFacts(written.artifact, {
      filesModified,
      plan: ctx.plan,
      stepInFlight: input.midRun ? stepInFlightOf(ctx.plan, userTexts.at(-1)) : null,
      pendingCalls: ctx.rows.flatMap((m) => pendingApprovalsOf(m.parts).map(describePendingCall)),
    });
    // The thread's pins, exactly: a person may have pinned or unpinned since the last brief.
    const pinned = await withThreadPins(withFacts, { userId, threadId });
    const consolidated = consolidateArtifact(pinned);
    const redacted = redactArtifact(consolidated.artifact);

    // Session N+1 must start below the reset threshold, or it would reset again at once; and
    // the brief itself takes at most the profile's share of the window, whatever the chain length.
    const budget = profile.resetThreshold * input.contextWindow;
    const briefBudget = Math.floor(profile.briefShare * input.contextWindow);
    const briefTokens = (artifact: HandoffArtifact) =>
      estimateTokens(carriedOverBlockOf(briefViewOf(artifact, from.number)), input.modelId);
    // Every session's calls carry the tool definitions; a run's next call, the continue line.
    const extra =
      (input.toolTokens ?? (await builtinToolTokens(input.modelId))) +
      (input.midRun ? continueLineTokens(input.modelId) : 0);
    const sessionTokens = (artifact: HandoffArtifact) =>
      estimatePromptTokens(profile, artifact, from.number, input.modelId, ctx.workspace) +
      input.movedTokens +
      extra;
    const fitsSession = (artifact: HandoffArtifact) => sessionTokens(artifact) < budget;
    const fits = (artifact: HandoffArtifact) =>
      briefTokens(artifact) <= briefBudget && fitsSession(artifact);
    let artifact = redacted.artifact;
    const dropped: DroppedItem[] = [...consolidated.dropped];
    if (!fits(artifact)) {
      const trimmed = trimArtifactToFit(artifact, fits);
      if (!trimmed) {
        const unfit = unfitReason(artifact, briefTokens, briefBudget, profile.briefShare);
        const { reason } = unfit;
        await finishResetWithoutCommit({
          threadId,
          fromSession: from.number,
          state: "failed",
          reason,
        });
        emit({ event: "reset_failed", ...base, reason, ...unfit.part });
        return { kind: "failed", reason };
      }
      artifact = trimmed.artifact;
      dropped.push(...trimmed.dropped);
    }

    const markdown = renderHandoffMarkdown(artifact);
    const committed = await commitReset({
      userId,
      threadId,
      from,
      endTokens: input.contextTokens,
      endUtilization: input.utilization,
      trigger: input.trigger,
      model: input.modelId,
      profile: profile.id,
      moveFromSeq: input.moveFromSeq,
      instanceId,
      resetStats: {
        durationMs: Date.now() - startedAt,
        startTokens: sessionTokens(artifact),
        contextWindow: input.contextWindow,
        source: written.source,
        writerTokens: written.tokens,
      },
      handoff: {
        artifact,
        markdown,
        contentIdFor: contentIdsFor(threadId, artifact),
        createdBy: `session:${from.id}`,
        kind: "session",
        model: input.modelId,
        profile: profile.id,
        redactions: redacted.redactions,
        // What was not carried is stored masked, like the artifact it was cut from.
        dropped: dropped.map((d) => ({ field: d.field, item: redactText(d.item).text })),
      },
    });
    if (committed.outcome !== "committed") {
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
  } catch (error) {
    if (watch.signal.aborted) {
      // Cancelled (or taken over) while the handoff was being written.
      const reason = "Cancelled.";
      emit({ event: "reset_cancelled", ...base, reason });
      return { kind: "cancelled", reason };
    }
    log.error("reset failed", error, { threadId });
    const reason = "The reset failed; the conversation continues in the current session.";
    await finishResetWithoutCommit({ threadId, fromSession: from.number, state: "failed", reason });
    emit({ event: "reset_failed", ...base, reason });
    return { kind: "failed", reason };
  } finally {
    watch.stop();
  }
}

function emitComplete(
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

/**
 * Why a handoff cannot be bounded: the never-dropped items alone (then the failed reset's card
 * lists the pins, the items the user can let go of), or the session as a whole.
 */
function unfitReason(
  artifact: HandoffArtifact,
  briefTokens: (artifact: HandoffArtifact) => number,
  briefBudget: number,
  briefShare: number,
): { reason: string; part?: Pick<ContextResetPart, "code" | "pins"> } {
  const kept = briefTokens(neverDroppedPart(artifact));
  if (kept > briefBudget) {
    return {
      reason:
        `The pinned items, decisions, open tasks and the last request alone take ${kept} tokens, ` +
        `more than the ${briefBudget} a brief may take (${Math.round(briefShare * 100)}% of the ` +
        "window). Nothing was lost: the conversation continues in this session. Unpin some items " +
        "or raise the agent's brief share to let it reset.",
      // Masked like everything a stored part carries.
      part: {
        code: "brief_too_large",
        pins: artifact.must_preserve.map((p) => redactText(p).text),
      },
    };
  }
  return { reason: "The handoff does not fit in a new session even after trimming." };
}

/** The view a brief is carried as, for measuring it before it is stored. */
function briefViewOf(artifact: HandoffArtifact, fromNumber: number): HandoffView {
  return {
    key: "",
    revision: fromNumber,
    id: "",
    sessionNumber: fromNumber,
    artifact,
    markdown: renderHandoffMarkdown(artifact),
    createdAt: "",
    redactions: [],
  };
}

function estimatePromptTokens(
  profile: Profile,
  artifact: HandoffArtifact,
  fromNumber: number,
  modelId: string,
  workspace: string,
): number {
  const system = systemPromptFor(profile, briefViewOf(artifact, fromNumber), null, workspace);
  return estimateTokens(system, modelId);
}

/**
 * Waits for another request's reset to end: committed, cancelled, failed, its lease expired, or
 * its server gone (a crashed reset never holds a queued message longer than the stale limit).
 */
export async function waitForReset({
  userId,
  threadId,
  fromSession,
  pollMs = 100,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
  pollMs?: number;
}): Promise<ThreadReset | null> {
  for (;;) {
    const found = await getResetLiveness({ userId, threadId, fromSession });
    if (!found) return null;
    if (!found.inFlight) return found.reset;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

export async function committedSessionOf(
  userId: string,
  reset: ThreadReset,
): Promise<Extract<ResetOutcome, { kind: "committed" }> | null> {
  return reset.state === "committed" ? committedOutcome(userId, reset) : null;
}
