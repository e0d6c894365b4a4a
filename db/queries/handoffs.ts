import "server-only";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { BatonError } from "@/lib/errors";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { type Database, getDb } from "../client";
import {
  type Handoff,
  type HandoffReceipt,
  type HandoffRevision,
  handoffReceipts,
  handoffRevisions,
  handoffs,
  type RedactionRecord,
} from "../schema";

export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Executor = Database | Tx;

export interface HandoffWrite {
  ownerId: string;
  key: string;
  /** Omitted: an artifact equal to the current one is a duplicate, otherwise current + 1. */
  revision?: number;
  artifact: HandoffArtifact;
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
}

export type HandoffWriteResult =
  | { outcome: "stored"; handoff: Handoff; revision: HandoffRevision }
  | { outcome: "duplicate"; handoff: Handoff; revision: HandoffRevision };

async function revisionRow(tx: Executor, handoffId: string, revision: number) {
  const [row] = await tx
    .select()
    .from(handoffRevisions)
    .where(and(eq(handoffRevisions.handoffId, handoffId), eq(handoffRevisions.revision, revision)));
  return row ?? null;
}

/**
 * The retry-safe upsert (SPEC §6), inside the caller's transaction. A higher revision is stored
 * and the previous one superseded; the same revision with the same content id is a duplicate; a
 * lower revision, or the same one with other content, is `conflict:stale_revision`.
 */
export async function writeHandoff(tx: Tx, input: HandoffWrite): Promise<HandoffWriteResult> {
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
  const [created] = await tx
    .insert(handoffs)
    .values({ ...values, revision: firstRevision, contentId: firstId, state: "prepared" })
    .onConflictDoNothing({ target: [handoffs.ownerId, handoffs.handoffKey] })
    .returning();
  if (created) {
    const [rev] = await tx
      .insert(handoffRevisions)
      .values({
        ...revisionValues(values),
        handoffId: created.id,
        revision: firstRevision,
        contentId: firstId,
      })
      .returning();
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

  await tx
    .update(handoffRevisions)
    .set({ state: "superseded" })
    .where(
      and(
        eq(handoffRevisions.handoffId, current.id),
        eq(handoffRevisions.revision, current.revision),
      ),
    );
  const [updated] = await tx
    .update(handoffs)
    .set({ ...values, revision, contentId: id, state: "prepared", updatedAt: new Date() })
    .where(eq(handoffs.id, current.id))
    .returning();
  const [rev] = await tx
    .insert(handoffRevisions)
    .values({ ...revisionValues(values), handoffId: current.id, revision, contentId: id })
    .returning();
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
}) {
  return {
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
 * same transaction that marks the handoff accepted; a retry returns the first receipt.
 */
export async function acceptHandoff(
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
    .onConflictDoNothing({ target: [handoffReceipts.contentId, handoffReceipts.receiver] })
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
    await tx
      .update(handoffRevisions)
      .set({ state: "accepted" })
      .where(
        and(
          eq(handoffRevisions.handoffId, current.id),
          eq(handoffRevisions.revision, current.revision),
        ),
      );
    return { handoff: accepted ?? current, receipt: inserted, created: true };
  }
  const [existing] = await tx
    .select()
    .from(handoffReceipts)
    .where(and(eq(handoffReceipts.contentId, contentId), eq(handoffReceipts.receiver, receiver)));
  if (!existing || existing.handoffId !== current.id) {
    throw new BatonError("not_found:handoff", "Handoff not found.");
  }
  return { handoff: current, receipt: existing, created: false };
}

export async function getHandoffRevisionById({
  ownerId,
  revisionId,
}: {
  ownerId: string;
  revisionId: string;
}): Promise<(HandoffRevision & { handoffKey: string }) | null> {
  const [row] = await getDb()
    .select({ rev: handoffRevisions, key: handoffs.handoffKey })
    .from(handoffRevisions)
    .innerJoin(handoffs, eq(handoffs.id, handoffRevisions.handoffId))
    .where(and(eq(handoffRevisions.id, revisionId), eq(handoffs.ownerId, ownerId)));
  return row ? { ...row.rev, handoffKey: row.key } : null;
}

export async function getCurrentHandoff({
  ownerId,
  key,
}: {
  ownerId: string;
  key: string;
}): Promise<Handoff | null> {
  const [row] = await getDb()
    .select()
    .from(handoffs)
    .where(and(eq(handoffs.ownerId, ownerId), eq(handoffs.handoffKey, key)));
  return row ?? null;
}

export async function listHandoffRevisions({
  ownerId,
  key,
}: {
  ownerId: string;
  key: string;
}): Promise<HandoffRevision[]> {
  const rows = await getDb()
    .select({ rev: handoffRevisions })
    .from(handoffRevisions)
    .innerJoin(handoffs, eq(handoffs.id, handoffRevisions.handoffId))
    .where(and(eq(handoffs.ownerId, ownerId), eq(handoffs.handoffKey, key)))
    .orderBy(desc(handoffRevisions.revision));
  return rows.map((r) => r.rev);
}

export async function countReceipts({ handoffId }: { handoffId: string }): Promise<number> {
  const [row] = await getDb()
    .select({ n: sql<number>`count(*)` })
    .from(handoffReceipts)
    .where(eq(handoffReceipts.handoffId, handoffId));
  return Number(row?.n ?? 0);
}

export async function getHandoffRevisionsByIds({
  ownerId,
  revisionIds,
}: {
  ownerId: string;
  revisionIds: string[];
}): Promise<(HandoffRevision & { handoffKey: string })[]> {
  if (revisionIds.length === 0) return [];
  const rows = await getDb()
    .select({ rev: handoffRevisions, key: handoffs.handoffKey })
    .from(handoffRevisions)
    .innerJoin(handoffs, eq(handoffs.id, handoffRevisions.handoffId))
    .where(and(inArray(handoffRevisions.id, revisionIds), eq(handoffs.ownerId, ownerId)));
  return rows.map((r) => ({ ...r.rev, handoffKey: r.key }));
}
