// Handoff storage, the write side (docs/handoffs.md): the retry-safe upsert, idempotent
// acceptance and the row locks their transactions take. Values arrive prepared: redaction,
// rendering and content ids are lib/handoff/write.ts's, which every write from above passes.
import "server-only";
import { and, eq } from "drizzle-orm";
import { BatonError } from "@/core/errors";
import type { AgentBrief } from "@/core/types";
import type { Executor, Tx } from "../executor";
import {
  type DroppedRecord,
  type Handoff,
  type HandoffReceipt,
  type HandoffRevision,
  type HandoffRevisionKind,
  type HandoffState,
  handoffReceipts,
  handoffRevisionColumns,
  handoffRevisions,
  handoffs,
  type RedactionRecord,
} from "../schema";

/** What a handoff artifact is stored as; the reset commit pins its must_preserve. */
type StoredArtifact = Record<string, unknown> & { must_preserve: readonly string[] };

/** A write as it is stored: already redacted, its markdown rendered, its content ids computed. */
export interface StoredHandoffWrite {
  ownerId: string;
  key: string;
  /** Omitted: an artifact equal to the current one is a duplicate, otherwise current + 1. */
  revision?: number;
  artifact: StoredArtifact;
  markdown: string;
  /** Computes the content id for a revision (the id covers the revision number). */
  contentIdFor: (revision: number) => string;
  createdBy: string;
  project?: string | null;
  repo?: string | null;
  kind?: string;
  threadId?: string | null;
  sessionNumber?: number | null;
  model?: string | null;
  profile?: string | null;
  redactions: RedactionRecord[];
  /** What a reset left out of this revision's brief (stored on the revision only). */
  dropped?: DroppedRecord[];
  /** The revision's kind (default `session`); `agent_handoff` revisions carry the brief. */
  revisionKind?: HandoffRevisionKind;
  brief?: AgentBrief | null;
}

export type HandoffWriteResult =
  | { outcome: "stored"; handoff: Handoff; revision: HandoffRevision }
  | { outcome: "duplicate"; handoff: Handoff; revision: HandoffRevision };

async function revisionRow(tx: Executor, handoffId: string, revision: number) {
  const [row] = await tx
    .select(handoffRevisionColumns)
    .from(handoffRevisions)
    .where(and(eq(handoffRevisions.handoffId, handoffId), eq(handoffRevisions.revision, revision)));
  return row ?? null;
}

/** The state of the current revision's history row follows the record's. */
export async function setRevisionState(
  tx: Tx,
  current: Pick<Handoff, "id" | "revision">,
  state: HandoffState,
): Promise<void> {
  await tx
    .update(handoffRevisions)
    .set({ state })
    .where(
      and(
        eq(handoffRevisions.handoffId, current.id),
        eq(handoffRevisions.revision, current.revision),
      ),
    );
}

/**
 * The retry-safe upsert (docs/handoffs.md), inside the caller's transaction. A higher revision
 * is stored and the previous one superseded; the same revision with the same content id is a
 * duplicate; a lower revision, or the same one with other content, is `conflict:stale_revision`.
 */
export async function storeHandoffWrite(
  tx: Tx,
  input: StoredHandoffWrite,
): Promise<HandoffWriteResult> {
  // Create the record if this is the key's first write; the unique (owner, key) serializes racers.
  const firstRevision = input.revision ?? 1;
  const firstId = input.contentIdFor(firstRevision);
  const values = {
    ownerId: input.ownerId,
    handoffKey: input.key,
    project: input.project ?? null,
    repo: input.repo ?? null,
    kind: input.kind ?? "session",
    createdBy: input.createdBy,
    artifact: input.artifact as unknown as Record<string, unknown>,
    markdown: input.markdown,
    threadId: input.threadId ?? null,
    sessionNumber: input.sessionNumber ?? null,
    model: input.model ?? null,
    profile: input.profile ?? null,
    redactions: input.redactions,
  };
  const revisionOf = {
    revisionKind: input.revisionKind ?? "session",
    brief: input.brief ?? null,
    dropped: input.dropped ?? [],
  };
  const [created] = await tx
    .insert(handoffs)
    .values({ ...values, revision: firstRevision, contentId: firstId, state: "prepared" })
    .onConflictDoNothing({ target: [handoffs.ownerId, handoffs.handoffKey] })
    .returning();
  if (created) {
    const [rev] = await tx
      .insert(handoffRevisions)
      .values({
        ...revisionValues({ ...values, ...revisionOf }),
        handoffId: created.id,
        revision: firstRevision,
        contentId: firstId,
      })
      .returning(handoffRevisionColumns);
    if (!rev) throw new Error("handoff revision insert returned nothing");
    return { outcome: "stored", handoff: created, revision: rev };
  }

  const [current] = await tx
    .select()
    .from(handoffs)
    .where(and(eq(handoffs.ownerId, input.ownerId), eq(handoffs.handoffKey, input.key)))
    .for("update");
  if (!current) throw new Error("handoff vanished while locked");

  let revision = input.revision;
  if (revision === undefined) {
    if (input.contentIdFor(current.revision) === current.contentId) {
      const rev = await revisionRow(tx, current.id, current.revision);
      if (!rev) throw new Error("current handoff revision missing from history");
      return { outcome: "duplicate", handoff: current, revision: rev };
    }
    revision = current.revision + 1;
  }
  const id = input.contentIdFor(revision);
  if (revision === current.revision && id === current.contentId) {
    const rev = await revisionRow(tx, current.id, revision);
    if (!rev) throw new Error("current handoff revision missing from history");
    return { outcome: "duplicate", handoff: current, revision: rev };
  }
  if (revision <= current.revision) {
    // A retry of an older revision that was already stored with this content is a duplicate too.
    const older = await revisionRow(tx, current.id, revision);
    if (older && older.contentId === id)
      return { outcome: "duplicate", handoff: current, revision: older };
    throw new BatonError(
      "conflict:stale_revision",
      `Revision ${revision} is not newer than the current revision ${current.revision}.`,
    );
  }

  await setRevisionState(tx, current, "superseded");
  const [updated] = await tx
    .update(handoffs)
    .set({ ...values, revision, contentId: id, state: "prepared", updatedAt: new Date() })
    .where(eq(handoffs.id, current.id))
    .returning();
  const [rev] = await tx
    .insert(handoffRevisions)
    .values({
      ...revisionValues({ ...values, ...revisionOf }),
      handoffId: current.id,
      revision,
      contentId: id,
    })
    .returning(handoffRevisionColumns);
  if (!updated || !rev) throw new Error("handoff update returned nothing");
  return { outcome: "stored", handoff: updated, revision: rev };
}

function revisionValues(values: {
  artifact: Record<string, unknown>;
  markdown: string;
  createdBy: string;
  threadId: string | null;
  sessionNumber: number | null;
  model: string | null;
  profile: string | null;
  redactions: RedactionRecord[];
  revisionKind: HandoffRevisionKind;
  brief: AgentBrief | null;
  dropped: DroppedRecord[];
}) {
  return {
    kind: values.revisionKind,
    brief: values.brief,
    dropped: values.dropped,
    artifact: values.artifact,
    markdown: values.markdown,
    createdBy: values.createdBy,
    threadId: values.threadId,
    sessionNumber: values.sessionNumber,
    model: values.model,
    profile: values.profile,
    redactions: values.redactions,
  };
}

/**
 * Idempotent acceptance: the receipt is unique per (content id, receiver) and written in the
 * same transaction that marks the handoff accepted; a retry returns the first receipt. The
 * receiver is stored as given: a session (`session:<id>`) or one masked above.
 */
export async function recordAcceptance(
  tx: Tx,
  {
    ownerId,
    key,
    contentId,
    receiver,
  }: { ownerId: string; key: string; contentId: string; receiver: string },
): Promise<{ handoff: Handoff; receipt: HandoffReceipt; created: boolean }> {
  const [current] = await tx
    .select()
    .from(handoffs)
    .where(and(eq(handoffs.ownerId, ownerId), eq(handoffs.handoffKey, key)))
    .for("update");
  if (!current) throw new BatonError("not_found:handoff", "Handoff not found.");
  const [inserted] = await tx
    .insert(handoffReceipts)
    .values({ handoffId: current.id, contentId, receiver, revision: current.revision })
    .onConflictDoNothing({
      target: [handoffReceipts.handoffId, handoffReceipts.contentId, handoffReceipts.receiver],
    })
    .returning();
  if (inserted) {
    if (current.contentId !== contentId) {
      throw new BatonError(
        "conflict:stale_revision",
        "That content id is not the handoff's current revision.",
      );
    }
    const [accepted] = await tx
      .update(handoffs)
      .set({ state: "accepted", updatedAt: new Date() })
      .where(eq(handoffs.id, current.id))
      .returning();
    await setRevisionState(tx, current, "accepted");
    return { handoff: accepted ?? current, receipt: inserted, created: true };
  }
  const [existing] = await tx
    .select()
    .from(handoffReceipts)
    .where(
      and(
        eq(handoffReceipts.handoffId, current.id),
        eq(handoffReceipts.contentId, contentId),
        eq(handoffReceipts.receiver, receiver),
      ),
    );
  if (!existing) {
    throw new BatonError("not_found:handoff", "Handoff not found.");
  }
  return { handoff: current, receipt: existing, created: false };
}

/** The record row locked for the rest of the transaction (FOR UPDATE), or null. */
export async function lockHandoff(
  tx: Tx,
  { ownerId, key }: { ownerId: string; key: string },
): Promise<Handoff | null> {
  const [row] = await tx
    .select()
    .from(handoffs)
    .where(and(eq(handoffs.ownerId, ownerId), eq(handoffs.handoffKey, key)))
    .for("update");
  return row ?? null;
}

export async function findReceipt(
  tx: Executor,
  { handoffId, contentId, receiver }: { handoffId: string; contentId: string; receiver: string },
): Promise<HandoffReceipt | null> {
  const [row] = await tx
    .select()
    .from(handoffReceipts)
    .where(
      and(
        eq(handoffReceipts.handoffId, handoffId),
        eq(handoffReceipts.contentId, contentId),
        eq(handoffReceipts.receiver, receiver),
      ),
    );
  return row ?? null;
}
