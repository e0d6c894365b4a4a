// A handoff record's end of life: cancelling its current revision, deleting it, and grooming
// the owner's expired records and those whose thread is gone.
import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { BatonError } from "@/core/errors";
import { getDb, rowsOf } from "../client";
import type { Tx } from "../executor";
import {
  handoffReceipts,
  handoffRevisionColumns,
  handoffRevisions,
  handoffs,
  sessions,
} from "../schema";
import type { HandoffWithRevision } from "./handoff-reads";
import { lockHandoff, setRevisionState } from "./handoff-writes";

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
    .select({ handoff: handoffs, revision: handoffRevisionColumns })
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
