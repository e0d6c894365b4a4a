// Crash recovery (docs/architecture.md, "Crash recovery"): what a dead server left behind is
// taken over by a live one — at start-up, when another instance falls silent, and whenever a
// thread is opened or written to. A dead run's reply is kept: interrupted while it streamed
// text (the user may Continue), resumed from its last recorded step otherwise. Every user
// message left without an answer — queued behind a reset that died, or whose turn died — is
// answered in seq order, each answer directly under its question, claimed once across servers.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { log } from "@/core/log";
import { getMessage, updateMessage } from "@/db/queries/messages";
import { deleteEmptyReply, settleReplyIfUnchanged } from "@/db/queries/messages-partial";
import { type DraftEnd, newestDraftEnd } from "@/db/queries/reset-drafts";
import { claimOrphans } from "@/db/queries/run-claims";
import {
  claimDeadRuns,
  claimRunAfterReview,
  endDeadRun,
  listRunsAwaitingReview,
  threadMayHoldOrphans,
} from "@/db/queries/run-recovery";
import { getCurrentSession } from "@/db/queries/sessions";
import { getThread } from "@/db/queries/threads";
import type { Message, Run, Thread } from "@/db/schema";
import { agentModelId, resolveProfile } from "@/lib/agents/profiles";
import { settleInterruptedCalls } from "@/lib/agents/tool-parts";
import { defaultModelId, getLanguageModel, listConfiguredModels } from "@/lib/ai/providers";
import { messageTokenCount } from "@/lib/context/message-tokens";
import { currentInstance, instanceStartedAt } from "@/lib/runtime/instance";
import { streamRun } from "./loop";
import { trackRecovery } from "./recovery-registry";

/** A message accepted this recently is left to the request that accepted it. */
const ORPHAN_GRACE_MS = 10_000;

export interface RecoveryOptions {
  languageModel?: (modelId: string) => LanguageModelV3;
  /** Messages accepted before this may be orphans (default: before start-up, or the grace). */
  acceptedBefore?: Date;
  /**
   * A draft under review just ended so: the runs it parked resume, and the messages queued behind
   * it are answered like queued ones, without a reset before their first call (the user has just
   * decided on that one).
   */
  afterDraft?: DraftEnd;
  /** The thread's row, when the caller has just read it. */
  thread?: Thread;
  /**
   * Opening or writing to the thread: nothing is claimed unless threadMayHoldOrphans finds a
   * stuck run or a newest message from the user (one statement, where claiming reads and locks
   * in two transactions).
   */
  onTouch?: boolean;
}

/** Recovery of one thread, started in the background (opening or writing to a thread). */
export function recoverThreadSoon(
  userId: string,
  threadId: string,
  thread?: Thread,
  /** The answer of threadMayHoldOrphans, when the caller's read asked it. */
  mayHoldOrphans?: boolean,
): void {
  if (mayHoldOrphans === false) return;
  recoverThread(userId, threadId, { thread, onTouch: true }).done.catch((error) =>
    log.error("recovery failed", error, { threadId }),
  );
}

/**
 * Recovers one thread: `claimed` resolves once its dead runs and orphans are claimed by this
 * instance, `done` once they are answered. One recovery per thread at a time in this process.
 */
export function recoverThread(
  userId: string,
  threadId: string,
  options: RecoveryOptions = {},
): { claimed: Promise<void>; done: Promise<void> } {
  let markClaimed: () => void = () => {};
  const claimed = new Promise<void>((resolve) => {
    markClaimed = resolve;
  });
  const done = trackRecovery(threadId, async () => {
    try {
      await recover(userId, threadId, options, markClaimed);
    } finally {
      markClaimed();
    }
  });
  return { claimed: Promise.race([claimed, done.catch(() => undefined)]), done };
}

async function recover(
  userId: string,
  threadId: string,
  options: RecoveryOptions,
  markClaimed: () => void,
): Promise<void> {
  const instanceId = await currentInstance();
  if (options.onTouch && !(await threadMayHoldOrphans({ threadId }))) return;
  const thread = options.thread ?? (await getThread({ userId, threadId }));
  if (!thread) return;
  const profile = await resolveProfile({ userId, profileId: thread.profile });
  const deadRuns = await claimDeadRuns({ threadId, instanceId });
  const resumable: { run: Run; message: Message; request: Message }[] = [];
  for (const run of deadRuns) {
    const outcome = await settleDeadRun(userId, threadId, run, thread.model);
    if (outcome) resumable.push(outcome);
  }
  // Also when the server that ended the draft died before it resumed them.
  const parked = await claimParkedRuns(userId, threadId, instanceId);
  resumable.push(...parked.resumable);
  const reviewEnded = options.afterDraft ?? parked.end;
  const acceptedBefore =
    options.acceptedBefore ??
    new Date(Math.max(instanceStartedAt().getTime(), Date.now() - ORPHAN_GRACE_MS));
  const orphans = [
    ...parked.unstarted,
    ...(await claimOrphans({
      userId,
      threadId,
      instanceId,
      maxSteps: profile.maxSteps,
      acceptedBefore,
    })),
  ].sort((a, b) => a.request.seq - b.request.seq);
  markClaimed();
  if (resumable.length || orphans.length) {
    log.info("recovering thread", undefined, {
      threadId,
      resumed: resumable.length,
      orphans: orphans.length,
    });
  }
  const threadModelId = listConfiguredModels().some((m) => m.id === thread.model)
    ? thread.model
    : defaultModelId();
  const languageModel = options.languageModel ?? ((id: string) => getLanguageModel(id));
  const modelId = agentModelId(profile, threadModelId);
  const base = {
    actor: { id: userId, isAnonymous: false, email: null, name: "" },
    threadId,
    profile,
    modelId,
    model: languageModel(modelId),
    languageModel,
    threadModelId,
    signal: new AbortController().signal,
    queued: reviewEnded !== undefined,
    reviewEnded,
    recovering: true,
  };
  for (const item of resumable) {
    const session = await getCurrentSession({ userId, threadId });
    if (!session) return;
    await drain(
      streamRun({
        ...base,
        session,
        request: item.request,
        resume: {
          run: item.run,
          message: item.message,
          approvedCallIds: new Set(),
          mode: "continue",
        },
      }),
    );
  }
  for (const { request, run } of orphans) {
    const session = await getCurrentSession({ userId, threadId });
    if (!session) return;
    // A queued message's reset died with its server: it is answered now, like any other.
    const placed =
      request.status === "queued"
        ? ((await updateMessage({
            userId,
            threadId,
            id: request.id,
            patch: { status: "complete" },
          })) ?? request)
        : request;
    await drain(streamRun({ ...base, session, request: placed, claimed: run }));
  }
}

/**
 * The runs a draft under review parked, claimed to go on: one with steps resumes in its message
 * (in the session the draft's end left), one parked before its first call starts it.
 */
async function claimParkedRuns(userId: string, threadId: string, instanceId: string) {
  const resumable: { run: Run; message: Message; request: Message }[] = [];
  const unstarted: { run: Run; request: Message }[] = [];
  const parked = await listRunsAwaitingReview({ threadId });
  const end = parked.length > 0 ? await newestDraftEnd({ threadId }) : null;
  if (!end) return { resumable, unstarted, end: undefined };
  for (const run of parked) {
    const request = run.requestMessageId
      ? await getMessage({ userId, threadId, id: run.requestMessageId })
      : null;
    const message = run.messageId
      ? await getMessage({ userId, threadId, id: run.messageId })
      : null;
    const claimed = request
      ? await claimRunAfterReview({
          runId: run.id,
          instanceId,
          streamBaseParts: message?.parts.length ?? 0,
        })
      : null;
    if (!claimed || !request) continue;
    if (message && message.parts.length > 0) resumable.push({ run: claimed, message, request });
    else unstarted.push({ run: claimed, request });
  }
  return { resumable, unstarted, end };
}

/**
 * A run whose server died: its reply is kept. Returns what to resume, or null when the run is
 * ended here — interrupted (it was streaming text: the user decides), or failed with nothing to
 * keep (its request is then an orphan and answered afresh).
 */
async function settleDeadRun(
  userId: string,
  threadId: string,
  run: Run,
  modelId: string,
): Promise<{ run: Run; message: Message; request: Message } | null> {
  const request = run.requestMessageId
    ? await getMessage({ userId, threadId, id: run.requestMessageId })
    : null;
  const message = run.messageId ? await getMessage({ userId, threadId, id: run.messageId }) : null;
  if (!request || !message || message.parts.length === 0) {
    if (message) await deleteEmptyReply({ threadId, id: message.id });
    await endDeadRun({ runId: run.id, status: "failed" });
    return null;
  }
  const parts = settleInterruptedCalls(message.parts);
  const streamingText = message.status === "partial" && hasText(parts);
  const updated = await settleReplyIfUnchanged({
    threadId,
    id: message.id,
    seenUpdatedAt: message.updatedAt,
    patch: {
      parts,
      status: streamingText ? "interrupted" : "partial",
      tokenCount: messageTokenCount(parts, modelId),
    },
  });
  if (!updated) return null; // it changed since it was read: whatever changed it is alive
  if (streamingText) {
    await endDeadRun({ runId: run.id, status: "interrupted" });
    return null;
  }
  return { run, message: updated, request };
}

function hasText(parts: readonly unknown[]): boolean {
  return parts.some(
    (p) =>
      (p as { type?: unknown }).type === "text" &&
      String((p as { text?: unknown }).text ?? "").trim() !== "",
  );
}

async function drain(response: Response): Promise<void> {
  const body = response.body;
  if (!body) return;
  const reader = body.getReader();
  for (;;) {
    const { done } = await reader.read();
    if (done) return;
  }
}
