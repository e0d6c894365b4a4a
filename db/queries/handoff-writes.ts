// Handoff storage, the write side (docs/handoffs.md): the redaction choke point every write
// passes, the retry-safe upsert, idempotent acceptance and the row locks their transactions take.
import "server-only";
import { and, eq } from "drizzle-orm";
import { BatonError } from "@/core/errors";
import type { AgentBrief } from "@/core/types";
import { redactBrief } from "@/lib/handoff/agent-brief";
import { HANDOFF_SCHEMA_VERSION, type HandoffArtifact } from "@/lib/handoff/artifact";
import { contentId as contentIdOf } from "@/lib/handoff/content-id";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { redactArtifact, redactText } from "@/lib/handoff/redact";
import type { Database } from "../client";
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

export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Executor = Database | Tx;

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

// ── Redaction choke point: every write to the handoff tables passes here (docs/handoffs.md) ──

function redactedField(
  field: string,
  value: string | null | undefined,
  report: RedactionRecord[],
): string | null | undefined {
  if (value === undefined || value === null) return value;
  const { text, kinds } = redactText(value);
  for (const kind of kinds) report.push({ kind, field });
  return text;
}

/**
 * Masks every free-text field of a write, whatever its caller already did, so no path (a reset,
 * the API, MCP, one added later) can store a secret. Callers redact first and usually nothing
 * changes here; when something does, the markdown is rendered again from the redacted artifact
 * and the content id is computed over what is stored, never over the secret. The key addresses
 * the record and cannot be masked, so a key that holds a secret is refused.
 */
export function redactHandoffWrite(input: HandoffWrite): HandoffWrite {
  if (redactText(input.key).kinds.length > 0) {
    throw new BatonError("bad_request:key", "This key looks like a secret.", {
      key: ["This key looks like a secret."],
    });
  }
  const { artifact, redactions } = redactArtifact(input.artifact);
  const report: RedactionRecord[] = [...redactions];
  const artifactChanged = redactions.length > 0;
  // Markdown rendered from the artifact is rendered again from the masked one: masking it as one
  // text would read list items and headings run together as `key: value` pairs.
  const rendered = input.markdown === renderHandoffMarkdown(input.artifact);
  const markdown = rendered
    ? artifactChanged
      ? renderHandoffMarkdown(artifact)
      : input.markdown
    : (redactedField("markdown", input.markdown, report) ?? "");
  const brief = input.brief ? redactBrief(input.brief) : null;
  if (brief) report.push(...brief.redactions);
  const envelope = {
    project: redactedField("project", input.project, report),
    repo: redactedField("repo", input.repo, report),
    kind: redactedField("kind", input.kind, report) ?? undefined,
    model: redactedField("model", input.model, report),
    profile: redactedField("profile", input.profile, report),
    createdBy: redactedField("created_by", input.createdBy, report) ?? input.createdBy,
  };
  if (report.length === 0) return input;
  const known = new Set(input.redactions.map((r) => `${r.field}\u0000${r.kind}`));
  const added = report.filter((r) => !known.has(`${r.field}\u0000${r.kind}`));
  return {
    ...input,
    ...envelope,
    artifact,
    markdown,
    brief: brief?.brief ?? null,
    contentIdFor: artifactChanged
      ? (revision) =>
          contentIdOf({
            schema_version: HANDOFF_SCHEMA_VERSION,
            handoff_key: input.key,
            revision,
            artifact,
          })
      : input.contentIdFor,
    redactions: [...input.redactions, ...added],
  };
}

/** A receiver names who accepted (`session:<id>`, a tool's name); never a credential. */
export function redactedReceiver(receiver: string): string {
  return redactText(receiver).text;
}

/**
 * The retry-safe upsert (docs/handoffs.md), inside the caller's transaction. A higher revision
 * is stored and the previous one superseded; the same revision with the same content id is a
 * duplicate; a lower revision, or the same one with other content, is `conflict:stale_revision`.
 */
export async function writeHandoff(tx: Tx, unredacted: HandoffWrite): Promise<HandoffWriteResult> {
  const input = redactHandoffWrite(unredacted);
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
 * same transaction that marks the handoff accepted; a retry returns the first receipt.
 */
export async function acceptHandoff(
  tx: Tx,
  {
    ownerId,
    key,
    contentId,
    receiver: unredactedReceiver,
  }: { ownerId: string; key: string; contentId: string; receiver: string },
): Promise<{ handoff: Handoff; receipt: HandoffReceipt; created: boolean }> {
  const receiver = redactedReceiver(unredactedReceiver);
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
