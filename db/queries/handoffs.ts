import "server-only";
import { and, desc, eq, inArray, notInArray, sql } from "drizzle-orm";
import type { AgentBrief } from "@/lib/chat/types";
import { BatonError } from "@/lib/errors";
import { redactBrief } from "@/lib/handoff/agent-brief";
import { HANDOFF_SCHEMA_VERSION, type HandoffArtifact } from "@/lib/handoff/artifact";
import { contentId as contentIdOf } from "@/lib/handoff/content-id";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { redactArtifact, redactText } from "@/lib/handoff/redact";
import { type Database, getDb, rowsOf } from "../client";
import {
  type DroppedRecord,
  type Handoff,
  type HandoffReceipt,
  type HandoffRevision,
  type HandoffRevisionKind,
  type HandoffState,
  handoffReceipts,
  handoffRevisions,
  handoffs,
  type RedactionRecord,
  sessions,
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
    .select()
    .from(handoffRevisions)
    .where(and(eq(handoffRevisions.handoffId, handoffId), eq(handoffRevisions.revision, revision)));
  return row ?? null;
}

/** The state of the current revision's history row follows the record's. */
async function setRevisionState(
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
function redactedReceiver(receiver: string): string {
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

// ── The public handoff API (issue 5): reads, pages, cancel, delete, grooming ──

export interface HandoffWithRevision {
  handoff: Handoff;
  revision: HandoffRevision;
}

/** The current record of a key, or one revision of its history when `revision` is given. */
export async function getHandoffWithRevision({
  ownerId,
  key,
  revision,
}: {
  ownerId: string;
  key: string;
  revision?: number;
}): Promise<HandoffWithRevision | null> {
  const [row] = await getDb()
    .select({ handoff: handoffs, revision: handoffRevisions })
    .from(handoffs)
    .innerJoin(
      handoffRevisions,
      and(
        eq(handoffRevisions.handoffId, handoffs.id),
        revision === undefined
          ? eq(handoffRevisions.revision, handoffs.revision)
          : eq(handoffRevisions.revision, revision),
      ),
    )
    .where(and(eq(handoffs.ownerId, ownerId), eq(handoffs.handoffKey, key)));
  return row ?? null;
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

/**
 * Keyset position in a newest-first page: the exact `updated_at` as text with microseconds (a JS
 * Date keeps only milliseconds, which would skip or repeat rows that share one) and the id.
 */
export interface HandoffPageCursor {
  updatedAt: string;
  id: string;
}

export async function listHandoffPage({
  ownerId,
  project,
  repo,
  state,
  cursor,
  limit,
}: {
  ownerId: string;
  project?: string;
  repo?: string;
  state?: HandoffState;
  cursor?: HandoffPageCursor;
  limit: number;
}): Promise<{ rows: HandoffWithRevision[]; nextCursor: HandoffPageCursor | null }> {
  const db = getDb();
  // Pick the page's ids first, sorting narrow rows; only those rows are then read whole. Without
  // an index on (owner_id, updated_at desc, id desc) the pick still scans the owner's rows.
  const picked = db.$with("picked").as(
    db
      .select({ id: handoffs.id })
      .from(handoffs)
      .where(
        and(
          eq(handoffs.ownerId, ownerId),
          project === undefined ? undefined : eq(handoffs.project, project),
          repo === undefined ? undefined : eq(handoffs.repo, repo),
          state === undefined ? undefined : eq(handoffs.state, state),
          cursor
            ? sql`(${handoffs.updatedAt}, ${handoffs.id}) < (${cursor.updatedAt}::timestamptz, ${cursor.id}::uuid)`
            : undefined,
        ),
      )
      .orderBy(desc(handoffs.updatedAt), desc(handoffs.id))
      .limit(limit + 1),
  );
  const rows = await db
    .with(picked)
    .select({
      handoff: handoffs,
      revision: handoffRevisions,
      exactUpdatedAt: sql<string>`to_char(${handoffs.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(picked)
    .innerJoin(handoffs, eq(handoffs.id, picked.id))
    .innerJoin(
      handoffRevisions,
      and(
        eq(handoffRevisions.handoffId, handoffs.id),
        eq(handoffRevisions.revision, handoffs.revision),
      ),
    )
    .orderBy(desc(handoffs.updatedAt), desc(handoffs.id));
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page.map(({ handoff, revision }) => ({ handoff, revision })),
    nextCursor:
      rows.length > limit && last ? { updatedAt: last.exactUpdatedAt, id: last.handoff.id } : null,
  };
}

/** Removes the record, its history and its receipts; false when the key is not the owner's. */
export async function deleteHandoffByKey({
  ownerId,
  key,
}: {
  ownerId: string;
  key: string;
}): Promise<boolean> {
  const rows = await getDb()
    .delete(handoffs)
    .where(and(eq(handoffs.ownerId, ownerId), eq(handoffs.handoffKey, key)))
    .returning({ id: handoffs.id });
  return rows.length > 0;
}

/**
 * Marks the current revision cancelled, inside the caller's transaction. With `contentId`, only
 * if that is still the current revision (a newer one is `conflict:stale_revision`). Cancelling a
 * cancelled handoff changes nothing.
 */
export async function cancelHandoff(
  tx: Tx,
  { ownerId, key, contentId }: { ownerId: string; key: string; contentId?: string },
): Promise<HandoffWithRevision | null> {
  const current = await lockHandoff(tx, { ownerId, key });
  if (!current) return null;
  if (contentId !== undefined && contentId !== current.contentId) {
    throw new BatonError(
      "conflict:stale_revision",
      `That content id is not the handoff's current revision (${current.revision}).`,
    );
  }
  if (current.state !== "cancelled") {
    await tx
      .update(handoffs)
      .set({ state: "cancelled", updatedAt: new Date() })
      .where(eq(handoffs.id, current.id));
    await setRevisionState(tx, current, "cancelled");
  }
  const [row] = await tx
    .select({ handoff: handoffs, revision: handoffRevisions })
    .from(handoffs)
    .innerJoin(
      handoffRevisions,
      and(
        eq(handoffRevisions.handoffId, handoffs.id),
        eq(handoffRevisions.revision, handoffs.revision),
      ),
    )
    .where(eq(handoffs.id, current.id));
  return row ?? null;
}

export type GroomReason = "thread_deleted" | "expired" | "in_use" | "recent";

/**
 * One statement classifies every handoff of the owner and deletes the groomable ones, so a
 * handoff touched meanwhile is judged on what the delete sees. A handoff some session starts
 * from is kept whatever its age: deleting it would empty that session's carried-over block.
 */
export async function groomHandoffs({
  ownerId,
  cutoff,
}: {
  ownerId: string;
  cutoff: Date;
}): Promise<{ key: string; reason: GroomReason; deleted: boolean }[]> {
  const result = await getDb().execute(sql`
    with in_use as (
      select distinct r.handoff_id
      from ${sessions} s
      join ${handoffRevisions} r on r.id = s.handoff_revision_id
    ),
    last_accepted as (
      select rc.handoff_id, max(rc.accepted_at) as accepted_at
      from ${handoffReceipts} rc
      join ${handoffs} h on h.id = rc.handoff_id
      where h.owner_id = ${ownerId}
      group by rc.handoff_id
    ),
    classified as (
      select h.id, h.handoff_key, h.updated_at,
        case
          when h.id in (select handoff_id from in_use) then 'in_use'
          when h.thread_id is null and h.kind = 'session' then 'thread_deleted'
          when greatest(h.updated_at, la.accepted_at) < ${cutoff.toISOString()}::timestamptz
            then 'expired'
          else 'recent'
        end as reason
      from ${handoffs} h
      left join last_accepted la on la.handoff_id = h.id
      where h.owner_id = ${ownerId}
    ),
    deleted as (
      delete from ${handoffs} d
      using classified c
      where d.id = c.id and c.reason in ('thread_deleted', 'expired')
      returning d.id
    )
    select c.handoff_key as key, c.reason, (c.id in (select id from deleted)) as deleted
    from classified c
    order by c.updated_at desc, c.id desc
  `);
  return rowsOf<{ key: string; reason: GroomReason; deleted: boolean }>(result);
}

/**
 * Account linking: a guest's handoffs follow its threads to the account. A key the account
 * already uses stays with the guest (keys are unique per owner) and goes when the guest does.
 */
export async function transferHandoffs({
  fromUserId,
  toUserId,
}: {
  fromUserId: string;
  toUserId: string;
}): Promise<number> {
  const taken = getDb()
    .select({ key: handoffs.handoffKey })
    .from(handoffs)
    .where(eq(handoffs.ownerId, toUserId));
  const rows = await getDb()
    .update(handoffs)
    .set({ ownerId: toUserId })
    .where(and(eq(handoffs.ownerId, fromUserId), notInArray(handoffs.handoffKey, taken)))
    .returning({ id: handoffs.id });
  return rows.length;
}

/**
 * An upsert from the API: `writeHandoff` with the record's envelope kept where the caller left it
 * out (project, repo, kind). A live thread's own key is refused: its resets write revision N from
 * session N, so a revision written beside them would make the thread's next reset stale.
 */
export async function writeApiHandoff(
  input: Omit<HandoffWrite, "project" | "repo" | "kind" | "threadId" | "sessionNumber"> & {
    project?: string | null;
    repo?: string | null;
    kind?: string;
    defaultKind: string;
    /** A kind the API never writes by default (a reset's), replaced by `defaultKind`. */
    reservedKind: string;
  },
): Promise<HandoffWriteResult> {
  return getDb().transaction(async (tx) => {
    const current = await lockHandoff(tx, { ownerId: input.ownerId, key: input.key });
    if (current?.threadId) {
      throw new BatonError(
        "conflict:thread_handoff",
        "This key belongs to a conversation whose resets write it; write under another key.",
      );
    }
    const keptKind = current && current.kind !== input.reservedKind ? current.kind : undefined;
    return writeHandoff(tx, {
      ...input,
      project: input.project === undefined ? (current?.project ?? null) : input.project,
      repo: input.repo === undefined ? (current?.repo ?? null) : input.repo,
      kind: input.kind ?? keptKind ?? input.defaultKind,
      threadId: null,
      sessionNumber: null,
    });
  });
}

/**
 * Acceptance from the API. A retry finds its receipt before anything else, so it is answered
 * the same even after the handoff was cancelled or superseded; a first acceptance of a cancelled
 * handoff is `conflict:handoff_cancelled`.
 */
export async function acceptApiHandoff({
  ownerId,
  key,
  contentId,
  receiver: unredactedReceiver,
}: {
  ownerId: string;
  key: string;
  contentId: string;
  receiver: string;
}): Promise<{ receipt: HandoffReceipt; created: boolean }> {
  const receiver = redactedReceiver(unredactedReceiver);
  return getDb().transaction(async (tx) => {
    const current = await lockHandoff(tx, { ownerId, key });
    if (!current) throw new BatonError("not_found:handoff", "Handoff not found.");
    const existing = await findReceipt(tx, { handoffId: current.id, contentId, receiver });
    if (existing) return { receipt: existing, created: false };
    if (current.state === "cancelled") {
      throw new BatonError("conflict:handoff_cancelled", "That handoff was cancelled.");
    }
    const { receipt, created } = await acceptHandoff(tx, { ownerId, key, contentId, receiver });
    return { receipt, created };
  });
}

export async function cancelApiHandoff(input: {
  ownerId: string;
  key: string;
  contentId?: string;
}): Promise<HandoffWithRevision | null> {
  return getDb().transaction((tx) => cancelHandoff(tx, input));
}
