// Drafting the handoff ahead (docs/context-engine.md, "Drafting ahead"): once a session passes its
// profile's draft threshold, the model writes the next handoff in the background, and the reset
// takes that draft and merges in mechanically what came after it instead of waiting for a model.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { convertToModelMessages } from "ai";
import { log } from "@/core/log";
import { getDb } from "@/db/client";
import { getAheadDraft, saveAheadDraft, takeAheadDraft } from "@/db/queries/ahead-drafts";
import { getActiveReset, sumTokensSince } from "@/db/queries/resets";
import { listTouchedPaths } from "@/db/queries/workspace";
import type { AheadDraft, ChatSession, Message } from "@/db/schema";
import type { Profile } from "@/lib/agents/profiles";
import { messageText } from "@/lib/chat/request";
import { toChatMessage } from "@/lib/chat/stored-message";
import type { ChatMessage, ContextPart } from "@/lib/chat/types";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { mergeIntoDraft } from "@/lib/handoff/draft-merge";
import { redactArtifact } from "@/lib/handoff/redact";
import { type HandoffWriterInput, writeHandoffArtifact } from "./handoff-writer";
import { loadSessionContext } from "./session-context";

/*
 * A draft is written again once what came after it holds more than this share of the window: by
 * then a reset would merge a lot of material without a model, and at the default thresholds
 * (0.65, 0.8) this allows at most one re-draft before the reset.
 */
const STALE_SHARE = 0.1;

// This process's drafts in flight, by session: one at a time per session, and a reset of the
// session waits for the one in flight instead of asking the model a second time. And the context
// each stored draft was written at, which also counts a reply that grew after a draft taken
// between its steps (its stored row is not "after" the draft).
const holder = globalThis as unknown as {
  batonDraftsAhead?: Map<string, Promise<void>>;
  batonDraftContext?: Map<string, number>;
};

function drafting(): Map<string, Promise<void>> {
  holder.batonDraftsAhead ??= new Map();
  return holder.batonDraftsAhead;
}

function contextAtDraft(): Map<string, number> {
  holder.batonDraftContext ??= new Map();
  return holder.batonDraftContext;
}

/** Whether this process is drafting the session's handoff now. */
export function isDraftingAhead(sessionId: string): boolean {
  return drafting().has(sessionId);
}

/** Whether a reading is in the drafting window: at or past the draft threshold, below the reset. */
export function inDraftWindow(profile: Profile, reading: ContextPart): boolean {
  const threshold = profile.draftThreshold;
  return (
    threshold !== null &&
    reading.strategy === "reset" &&
    reading.utilization >= threshold &&
    reading.utilization < profile.resetThreshold
  );
}

export interface DraftAheadInput {
  userId: string;
  threadId: string;
  session: ChatSession;
  profile: Profile;
  modelId: string;
  model: LanguageModelV3;
  /** The session's context after the latest model call. */
  reading: ContextPart;
  /**
   * Set between two steps of a run: the reply as streamed so far and its stored row's seq. The
   * stored row lags behind it (it is saved every half second), so the writer reads this instead.
   */
  live?: { seq: number; message: ChatMessage };
}

/**
 * Starts drafting the session's next handoff in the background when the reading is in the
 * drafting window, no draft is in flight for the session here, and the stored one (if any) is
 * stale. Never throws and never delays the caller: a failed draft is logged and the reset writes
 * its handoff as it would without one.
 */
export function draftAheadSoon(input: DraftAheadInput): void {
  if (!inDraftWindow(input.profile, input.reading)) return;
  const map = drafting();
  const sessionId = input.session.id;
  if (map.has(sessionId)) return;
  const done = draftAhead(input)
    .catch((error) => log.warn("draft ahead failed", error, { threadId: input.threadId }))
    .finally(() => map.delete(sessionId));
  map.set(sessionId, done);
}

/** Stale: by another model, or more than STALE_SHARE of the window came after it. */
async function isStale(draft: AheadDraft, input: DraftAheadInput): Promise<boolean> {
  if (draft.modelId !== input.modelId) return true;
  const limit = STALE_SHARE * input.reading.contextWindow;
  const at = contextAtDraft().get(input.session.id);
  if (at !== undefined && input.reading.inputTokens - at > limit) return true;
  // A draft another server wrote (or this one before a restart): the messages stored after it.
  const since = await sumTokensSince({ sessionId: input.session.id, afterSeq: draft.throughSeq });
  return since > limit;
}

async function draftAhead(input: DraftAheadInput): Promise<void> {
  const { userId, threadId, session, profile } = input;
  const [existing, reset] = await Promise.all([
    getAheadDraft({ userId, sessionId: session.id }),
    getActiveReset({ userId, threadId }),
  ]);
  // A reset in flight writes its own handoff; a fresh draft needs no second one.
  if (reset || (existing && !(await isStale(existing, input)))) return;
  const [ctx, filesTouched] = await Promise.all([
    loadSessionContext({ userId, threadId, session, profile }),
    listTouchedPaths(getDb(), { userId, threadId, sessionId: session.id }),
  ]);
  const history = withLiveReply(ctx.rows, input.live);
  const throughSeq = Math.max(0, ...history.map((m) => m.seq));
  if (throughSeq === 0) return;
  const userTexts = ctx.rows.filter((m) => m.role === "user").map((m) => messageText(m.parts));
  const written = await writeHandoffArtifact({
    model: input.model,
    system: ctx.system,
    messages: await convertToModelMessages(
      history.map((m) => m.message),
      { ignoreIncompleteToolCalls: true },
    ),
    previous: ctx.brief?.artifact ?? null,
    userTexts,
    filesTouched,
    lastUserRequest: userTexts.at(-1),
  });
  const stored = await saveAheadDraft({
    userId,
    sessionId: session.id,
    values: {
      // Stored masked, like every handoff table; the reset masks again after its merge.
      artifact: redactArtifact(written.artifact).artifact,
      source: written.source,
      writerTokens: written.tokens,
      throughSeq,
      modelId: input.modelId,
    },
  });
  if (stored) contextAtDraft().set(session.id, input.reading.inputTokens);
}

/** The session's rows as the writer sees them, in seq order, the live reply in its row's place. */
function withLiveReply(
  rows: readonly Message[],
  live: DraftAheadInput["live"],
): { seq: number; message: ChatMessage }[] {
  const out = rows
    .filter((m) => m.seq !== live?.seq)
    .map((m) => ({ seq: m.seq, message: toChatMessage(m) }));
  if (live) out.push(live);
  return out.sort((a, b) => a.seq - b.seq);
}

/** Resolves when the session's draft in flight here (if any) has ended; rejects on `signal`. */
async function draftSettled(sessionId: string, signal?: AbortSignal): Promise<void> {
  const running = drafting().get(sessionId);
  if (!running) return;
  signal?.throwIfAborted();
  if (!signal) return running;
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    void running.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}

export interface ResetHandoffInput {
  userId: string;
  /** The session that ends. */
  sessionId: string;
  modelId: string;
  /** The rows of the ending session the model would see (ordered by seq). */
  rows: readonly Message[];
  /** What the writer gets when there is no usable draft. */
  writer: HandoffWriterInput;
}

/**
 * The handoff of a reset: the session's draft ahead (awaited when it is still being written
 * here) with what came after it merged in mechanically — no model call — or, without one, the
 * handoff the model writes now. The draft is taken: a later reset of the same session (after
 * this one failed or was cancelled) writes afresh unless a new draft was made meanwhile.
 */
export async function handoffForReset(
  input: ResetHandoffInput,
): ReturnType<typeof writeHandoffArtifact> {
  const { writer } = input;
  await draftSettled(input.sessionId, writer.abortSignal);
  const draft = await takeAheadDraft({ userId: input.userId, sessionId: input.sessionId });
  contextAtDraft().delete(input.sessionId);
  // A draft by another model is not this model's handoff (the revision names its writer).
  const parsed =
    draft && draft.modelId === input.modelId
      ? handoffArtifactSchema.safeParse(draft.artifact)
      : null;
  if (!draft || !parsed?.success) return writeHandoffArtifact(writer);
  const laterUserTexts = input.rows
    .filter((m) => m.role === "user" && m.seq > draft.throughSeq)
    .map((m) => messageText(m.parts));
  return {
    artifact: mergeIntoDraft({
      draft: parsed.data,
      previous: writer.previous,
      laterUserTexts,
      filesTouched: writer.filesTouched,
      lastUserRequest: writer.lastUserRequest,
    }),
    source: draft.source,
    failures: [],
    tokens: draft.writerTokens,
  };
}

/**
 * Resolves once every draft running in this process has ended (for a clean shutdown, and for
 * tests that close their database afterwards).
 */
export async function settleDraftsAhead(): Promise<void> {
  for (let map = drafting(); map.size > 0; map = drafting()) {
    await Promise.allSettled([...map.values()]);
  }
}
