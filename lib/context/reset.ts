// A context reset (docs/context-engine.md) in two steps: prepare (lease, handoff written by the
// model outside any transaction, facts, redaction, the bound) and commit (one transaction, then
// the events the stream carries) — or, when a review is asked for, a stored draft in between.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { convertToModelMessages } from "ai";
import { serverEnv } from "@/core/env";
import { log } from "@/core/log";
import { getDb } from "@/db/client";
import { getResetDraft, storeResetDraft } from "@/db/queries/reset-drafts";
import { acquireResetLease, finishResetWithoutCommit, getResetLiveness } from "@/db/queries/resets";
import { listTouchedPaths } from "@/db/queries/workspace";
import type { ChatSession, ThreadReset } from "@/db/schema";
import type { Profile } from "@/lib/agents/profiles";
import { describePendingCall, pendingApprovalsOf } from "@/lib/agents/tool-parts";
import { draftViewOf } from "@/lib/chat/draft-view";
import { messageText } from "@/lib/chat/request";
import type { ContextResetPart, SessionTrigger } from "@/lib/chat/types";
import { consolidateArtifact } from "@/lib/handoff/consolidate";
import { redactArtifact } from "@/lib/handoff/redact";
import { timeReset } from "@/lib/metrics";
import { currentInstance } from "@/lib/runtime/instance";
import { handoffForReset } from "./draft-ahead";
import { applyRunFacts, stepInFlightOf } from "./mechanical-facts";
import { type BoundResult, boundArtifact } from "./reset-bound";
import {
  commitPrepared,
  committedOutcome,
  emitComplete,
  maskedDropped,
  type PreparedReset,
  type ResetOutcome,
} from "./reset-commit";
import { watchReset } from "./reset-watch";
import { loadSessionContext } from "./session-context";
import { withThreadPins } from "./thread-pins";

export {
  committedSessionOf,
  NOT_RUN_AT_RESET,
  type ResetOutcome,
} from "./reset-commit";

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
  /** Stop at the draft: store it for the user's review instead of committing it. */
  review?: boolean;
  /** The run a threshold reset under review `always` suspends (resumed when the draft ends). */
  runId?: string | null;
  emit?: (part: ContextResetPart) => void;
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
  if (lease.kind === "awaiting_review") {
    // Asking for the review again answers the same draft; the model is not asked twice.
    const draft = input.review
      ? await getResetDraft({ userId, threadId, fromSession: from.number })
      : null;
    if (!draft) return { kind: "awaiting_review", reset: lease.reset };
    emit({ event: "awaiting_review", ...base, draft: draftViewOf(draft) });
    return { kind: "draft", draft, created: false };
  }
  emit({ event: "input_blocked", ...base });

  const watch = watchReset({ userId, threadId, fromSession: from.number, instanceId });
  try {
    const prepared = await prepareReset(input, watch.signal);
    watch.stop();
    if (!prepared.fits) {
      const { reason } = prepared;
      await finishResetWithoutCommit({
        threadId,
        fromSession: from.number,
        state: "failed",
        reason,
      });
      emit({ event: "reset_failed", ...base, reason, ...prepared.part });
      return { kind: "failed", reason };
    }
    if (input.review) return await storeDraft(input, prepared, { instanceId, startedAt, emit });
    return await commitPrepared({ ...input, emit }, prepared, { instanceId, startedAt });
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
type Prepared = PreparedReset | Extract<BoundResult, { fits: false }>;

/** Writes the handoff (the model), adds the run's facts, consolidates, masks and bounds it. */
async function prepareReset(input: ResetInput, signal: AbortSignal): Promise<Prepared> {
  const { userId, threadId, from, profile } = input;
  const [ctx, filesModified] = await Promise.all([
    loadSessionContext({ userId, threadId, session: from, profile }),
    listTouchedPaths(getDb(), { userId, threadId, sessionId: from.id }),
  ]);
  const userTexts = ctx.rows.filter((m) => m.role === "user").map((m) => messageText(m.parts));
  // A draft written ahead takes the model's place when there is one (./draft-ahead).
  const written = await handoffForReset({
    userId,
    sessionId: from.id,
    modelId: input.modelId,
    rows: ctx.rows,
    writer: {
      model: input.model,
      system: ctx.system,
      messages: await convertToModelMessages(ctx.history, { ignoreIncompleteToolCalls: true }),
      previous: ctx.brief?.artifact ?? null,
      userTexts,
      filesTouched: filesModified,
      lastUserRequest: userTexts.at(-1),
      abortSignal: signal,
    },
  });
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
  const bound = await boundArtifact(redacted.artifact, {
    profile,
    modelId: input.modelId,
    contextWindow: input.contextWindow,
    fromNumber: from.number,
    workspace: ctx.workspace,
    movedTokens: input.movedTokens,
    midRun: input.midRun ?? false,
    toolTokens: input.toolTokens,
  });
  if (!bound.fits) return bound;
  return {
    fits: true,
    artifact: bound.artifact,
    dropped: [...consolidated.dropped, ...bound.dropped],
    redactions: redacted.redactions,
    source: written.source,
    writerTokens: written.tokens,
    startTokens: bound.startTokens,
  };
}
/** Stores the prepared handoff as a draft for review; the reset's lease ends with it. */
async function storeDraft(
  input: ResetInput,
  prepared: PreparedReset,
  at: { instanceId: string; startedAt: number; emit: (part: ContextResetPart) => void },
): Promise<ResetOutcome> {
  const { from } = input;
  const base = { oldSessionId: from.id, threshold: input.profile.resetThreshold };
  const draft = await storeResetDraft({
    threadId: input.threadId,
    fromSession: from.number,
    trigger: input.trigger,
    instanceId: at.instanceId,
    artifact: prepared.artifact,
    dropped: maskedDropped(prepared.dropped),
    redactions: prepared.redactions,
    source: prepared.source,
    writerTokens: prepared.writerTokens,
    context: {
      modelId: input.modelId,
      profileId: input.profile.id,
      contextTokens: input.contextTokens,
      contextWindow: input.contextWindow,
      utilization: input.utilization,
      moveFromSeq: input.moveFromSeq,
      movedTokens: input.movedTokens,
      midRun: input.midRun ?? false,
      runId: input.runId ?? null,
      startedAt: new Date(at.startedAt).toISOString(),
      toolTokens: input.toolTokens,
    },
    expiresAt: new Date(at.startedAt + draftTtlMs()),
  });
  if (!draft) {
    const reason = "Cancelled.";
    at.emit({ event: "reset_cancelled", ...base, reason });
    return { kind: "cancelled", reason };
  }
  at.emit({ event: "awaiting_review", ...base, draft: draftViewOf(draft) });
  return { kind: "draft", draft, created: true };
}
/** How long a draft waits for review before it is cancelled (BATON_DRAFT_TTL_HOURS). */
function draftTtlMs(): number {
  return (serverEnv().BATON_DRAFT_TTL_HOURS ?? 24) * 60 * 60 * 1000;
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
