// Handoff storage, the read side: one record or revision, a key's history, the revisions a
// thread's sessions started from, and the owner's newest-first pages.
import "server-only";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { getDb } from "../client";
import {
  type Handoff,
  type HandoffRevision,
  type HandoffState,
  handoffRevisionColumns,
  handoffRevisions,
  handoffs,
} from "../schema";

export async function getHandoffRevisionById({
  ownerId,
  revisionId,
}: {
  ownerId: string;
  revisionId: string;
}): Promise<(HandoffRevision & { handoffKey: string }) | null> {
  const [row] = await getDb()
    .select({ rev: handoffRevisionColumns, key: handoffs.handoffKey })
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
    .select({ rev: handoffRevisionColumns })
    .from(handoffRevisions)
    .innerJoin(handoffs, eq(handoffs.id, handoffRevisions.handoffId))
    .where(and(eq(handoffs.ownerId, ownerId), eq(handoffs.handoffKey, key)))
    .orderBy(desc(handoffRevisions.revision));
  return rows.map((r) => r.rev);
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
    .select({ rev: handoffRevisionColumns, key: handoffs.handoffKey })
    .from(handoffRevisions)
    .innerJoin(handoffs, eq(handoffs.id, handoffRevisions.handoffId))
    .where(and(inArray(handoffRevisions.id, revisionIds), eq(handoffs.ownerId, ownerId)));
  return rows.map((r) => ({ ...r.rev, handoffKey: r.key }));
}

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
    .select({ handoff: handoffs, revision: handoffRevisionColumns })
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
      revision: handoffRevisionColumns,
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
