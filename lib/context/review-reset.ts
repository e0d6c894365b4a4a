// Review before replace (docs/context-engine.md): a reset that stopped at its draft is committed
// with the user's edits, cancelled, or expires. Whatever waited for it — messages queued behind
// the draft, a run it suspended — goes on afterwards in the session the draft's end leaves: each
// draft ended here is reported to the caller's `afterDraft`, which answers it.
import "server-only";
import { BatonError } from "@/core/errors";
import { getDb } from "@/db/client";
import { currentPinTexts, normalizePin, pinText, unpinTexts } from "@/db/queries/pins";
import { expireDueDrafts, getResetDraft } from "@/db/queries/reset-drafts";
import { getReset } from "@/db/queries/resets";
import { getCurrentSession } from "@/db/queries/sessions";
import { getThread } from "@/db/queries/threads";
import type { DroppedRecord } from "@/db/schema";
import { resolveProfile } from "@/lib/agents/profiles";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { redactArtifact } from "@/lib/handoff/redact";
import { currentInstance } from "@/lib/runtime/instance";
import { type AfterDraft, endedDraft } from "./draft-end";
import { boundArtifact } from "./reset-bound";
import { commitPrepared, committedSessionOf } from "./reset-commit";
import type { ManualResetResult } from "./reset-result";
import { loadSessionContext } from "./session-context";
import { withPinsSinceDraft } from "./thread-pins";

const noDraft = (why: string) => new BatonError("conflict:no_draft", why);

/**
 * Commits the reviewed draft of (thread, fromSession) as revision N, exactly like a reset commit:
 * the user's artifact is masked and bounded again, and its must_preserve becomes the thread's
 * pins. A repeat answers the session the first commit made (`created: false`).
 */
export async function commitDraft({
  userId,
  threadId,
  fromSession,
  artifact,
  afterDraft,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
  artifact: HandoffArtifact;
  afterDraft: AfterDraft;
}): Promise<ManualResetResult> {
  const thread = await getThread({ userId, threadId });
  if (!thread) throw new BatonError("not_found:thread", "Thread not found.");
  await expireThreadDrafts(userId, threadId, afterDraft);
  const draft = await getResetDraft({ userId, threadId, fromSession });
  if (draft?.state === "committed") {
    const reset = await getReset({ userId, threadId, fromSession });
    const done = reset ? await committedSessionOf(userId, reset) : null;
    if (done) return { created: false, session: done.session, handoff: done.handoff };
  }
  if (!draft) throw noDraft("No handoff draft awaits review for that session.");
  if (draft.state !== "awaiting_review") throw noDraft(`The draft was ${draft.state}.`);
  const from = await getCurrentSession({ userId, threadId });
  if (from?.number !== fromSession) throw noDraft("The draft's session has already ended.");

  const { context } = draft;
  const profile = await resolveProfile({ userId, profileId: context.profileId });
  const ctx = await loadSessionContext({ userId, threadId, session: from, profile });
  const current = await withPinsSinceDraft(
    artifact,
    draft.artifact as unknown as HandoffArtifact,
    draft.createdAt,
    { userId, threadId },
  );
  const redacted = redactArtifact(current);
  const bound = await boundArtifact(redacted.artifact, {
    profile,
    modelId: context.modelId,
    contextWindow: context.contextWindow,
    fromNumber: from.number,
    workspace: ctx.workspace,
    movedTokens: context.movedTokens,
    midRun: context.midRun,
    toolTokens: context.toolTokens,
  });
  // The draft is kept: the user can shorten it and commit again.
  if (!bound.fits) throw new BatonError("conflict:draft_too_large", bound.reason);

  const pins = await pinChanges(userId, threadId, bound.artifact.must_preserve);
  const outcome = await commitPrepared(
    {
      userId,
      threadId,
      from,
      trigger: draft.trigger,
      profile,
      modelId: context.modelId,
      moveFromSeq: context.moveFromSeq,
      contextTokens: context.contextTokens,
      contextWindow: context.contextWindow,
      utilization: context.utilization,
      fromDraft: true,
      alsoInCommit: async (tx) => {
        for (const text of pins.add) await pinText(tx, { userId, threadId, text, source: "user" });
        await unpinTexts(tx, { userId, threadId, texts: pins.remove });
      },
    },
    {
      fits: true,
      artifact: bound.artifact,
      dropped: [...stillDropped(draft.dropped, bound.artifact), ...bound.dropped],
      redactions: redacted.redactions,
      source: draft.source,
      writerTokens: draft.writerTokens,
      startTokens: bound.startTokens,
    },
    { instanceId: await currentInstance(), startedAt: Date.parse(context.startedAt) },
  );
  if (outcome.kind !== "committed") throw noDraft("The draft was cancelled.");
  if (!outcome.duplicate) afterDraft(endedDraft(userId, draft, "committed"));
  return { created: !outcome.duplicate, session: outcome.session, handoff: outcome.handoff };
}

/** What the reviewed must_preserve adds to and removes from the thread's pins. */
async function pinChanges(userId: string, threadId: string, wanted: readonly string[]) {
  const current = await currentPinTexts(getDb(), { userId, threadId });
  const have = new Set(current.map(normalizePin));
  const keep = new Set(wanted.map(normalizePin));
  return {
    add: wanted.filter((text) => !have.has(normalizePin(text))),
    remove: current.filter((text) => !keep.has(normalizePin(text))),
  };
}

/** Items the draft left out that the user did not put back. */
function stillDropped(dropped: readonly DroppedRecord[], artifact: HandoffArtifact) {
  return dropped.flatMap((d) => {
    const field = (artifact as Record<string, unknown>)[d.field];
    const back = Array.isArray(field) ? field.includes(d.item) : field === d.item;
    return back ? [] : [{ field: d.field as keyof HandoffArtifact, item: d.item }];
  });
}

/** Expires the thread's drafts that waited too long (checked whenever the thread is touched). */
export async function expireThreadDrafts(
  userId: string,
  threadId: string,
  afterDraft: AfterDraft,
): Promise<void> {
  for (const draft of await expireDueDrafts({ threadId })) {
    afterDraft(endedDraft(userId, draft, "expired"));
  }
}

/** At start-up: every draft past its time, on every thread. */
export async function expireAllDueDrafts(afterDraft: AfterDraft): Promise<number> {
  const expired = await expireDueDrafts();
  for (const draft of expired) afterDraft(endedDraft(draft.userId, draft, "expired"));
  return expired.length;
}
