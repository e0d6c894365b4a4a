// Account linking for handoffs: a guest's records move to the account it signs in to. Keys are
// unique per owner, so a guest key the account already uses is re-keyed `<key>.guest` (then
// `.guest-2`, …) rather than dropped, and the user gets a one-shot notice saying so.
import "server-only";
import { and, asc, eq, inArray, isNull, notInArray } from "drizzle-orm";
import { getDb } from "../client";
import type { Tx } from "../executor";
import {
  type AccountNoticeData,
  accountNotices,
  handoffReceipts,
  handoffRevisions,
  handoffs,
} from "../schema";

/**
 * The content id of one revision under a key. The id covers the key (docs/handoffs.md), so a
 * re-keyed record needs new ids; the caller supplies the hash, as writeHandoff's callers do.
 */
export type ContentIdFor = (input: {
  key: string;
  revision: number;
  artifact: Record<string, unknown>;
}) => string;

/** Keys are at most 128 characters (HANDOFF_KEY_PATTERN in lib/handoff-api/schemas.ts). */
const MAX_KEY_LENGTH = 128;

/**
 * The n-th re-key candidate: `<key>.guest`, `<key>.guest-2`, … The key is shortened to fit the
 * suffix within the length limit; its first character (a letter or digit) always stays.
 */
export function guestKey(key: string, attempt: number): string {
  const suffix = attempt <= 1 ? ".guest" : `.guest-${attempt}`;
  return key.slice(0, MAX_KEY_LENGTH - suffix.length) + suffix;
}

interface RenamedHandoff {
  key: string;
  keptAs: string;
}

export interface HandoffMerge {
  /** Guest records that kept their key. */
  moved: number;
  /** Guest records whose key the account already used, with the key each one has now. */
  renamed: RenamedHandoff[];
}

/**
 * Moves every handoff of `fromUserId` to `toUserId` in one transaction: records, their
 * revisions and receipts (which hang off the record by id and so follow it), and one notice per
 * re-keyed record. Both owners' records are locked first, so a write racing the merge waits.
 */
export async function mergeGuestHandoffs({
  fromUserId,
  toUserId,
  contentIdFor,
}: {
  fromUserId: string;
  toUserId: string;
  contentIdFor: ContentIdFor;
}): Promise<HandoffMerge> {
  return getDb().transaction(async (tx) => {
    const accountKeys = await tx
      .select({ key: handoffs.handoffKey })
      .from(handoffs)
      .where(eq(handoffs.ownerId, toUserId))
      .for("update");
    const guest = await tx
      .select({ id: handoffs.id, key: handoffs.handoffKey })
      .from(handoffs)
      .where(eq(handoffs.ownerId, fromUserId))
      .orderBy(asc(handoffs.handoffKey))
      .for("update");

    const taken = new Set(accountKeys.map((r) => r.key));
    const keeping = guest.filter((r) => !taken.has(r.key));
    const colliding = guest.filter((r) => taken.has(r.key));
    // Keys moving unchanged are claimed before any new name is picked, so a guest's own
    // `notes.guest` is never taken by its `notes`.
    for (const r of keeping) taken.add(r.key);

    if (keeping.length > 0) {
      await tx
        .update(handoffs)
        .set({ ownerId: toUserId })
        .where(
          inArray(
            handoffs.id,
            keeping.map((r) => r.id),
          ),
        );
    }

    const renamed: RenamedHandoff[] = [];
    for (const record of colliding) {
      let attempt = 1;
      while (taken.has(guestKey(record.key, attempt))) attempt++;
      const keptAs = guestKey(record.key, attempt);
      taken.add(keptAs);
      await rekey(tx, { handoffId: record.id, toUserId, key: keptAs, contentIdFor });
      renamed.push({ key: record.key, keptAs });
    }

    if (renamed.length > 0) {
      await tx.insert(accountNotices).values(
        renamed.map((r): { userId: string; data: AccountNoticeData } => ({
          userId: toUserId,
          data: { kind: "handoff_kept_as", key: r.key, keptAs: r.keptAs },
        })),
      );
    }
    return { moved: keeping.length, renamed };
  });
}

/** Gives one record a new owner and key, with every content id recomputed for the key. */
async function rekey(
  tx: Tx,
  {
    handoffId,
    toUserId,
    key,
    contentIdFor,
  }: { handoffId: string; toUserId: string; key: string; contentIdFor: ContentIdFor },
): Promise<void> {
  const revisions = await tx
    .select({
      id: handoffRevisions.id,
      revision: handoffRevisions.revision,
      contentId: handoffRevisions.contentId,
      artifact: handoffRevisions.artifact,
    })
    .from(handoffRevisions)
    .where(eq(handoffRevisions.handoffId, handoffId));
  const byOldId = new Map<string, string>();
  const byRevision = new Map<number, string>();
  for (const rev of revisions) {
    const id = contentIdFor({ key, revision: rev.revision, artifact: rev.artifact });
    byOldId.set(rev.contentId, id);
    byRevision.set(rev.revision, id);
    await tx.update(handoffRevisions).set({ contentId: id }).where(eq(handoffRevisions.id, rev.id));
  }

  const [record] = await tx
    .select({ revision: handoffs.revision, artifact: handoffs.artifact })
    .from(handoffs)
    .where(eq(handoffs.id, handoffId));
  if (!record) throw new Error("handoff vanished while locked");
  // updated_at stays: moving a record is not a write, and grooming ages records by it.
  await tx
    .update(handoffs)
    .set({
      ownerId: toUserId,
      handoffKey: key,
      contentId: contentIdFor({ key, revision: record.revision, artifact: record.artifact }),
    })
    .where(eq(handoffs.id, handoffId));

  // A receipt names the content id it accepted, which was that revision's id.
  const receipts = await tx
    .select({
      id: handoffReceipts.id,
      contentId: handoffReceipts.contentId,
      revision: handoffReceipts.revision,
    })
    .from(handoffReceipts)
    .where(eq(handoffReceipts.handoffId, handoffId));
  for (const receipt of receipts) {
    const id = byOldId.get(receipt.contentId) ?? byRevision.get(receipt.revision);
    if (id === undefined || id === receipt.contentId) continue;
    await tx
      .update(handoffReceipts)
      .set({ contentId: id })
      .where(eq(handoffReceipts.id, receipt.id));
  }
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

export interface PendingNotice {
  id: string;
  data: AccountNoticeData;
}

/** The user's notices not marked seen yet, oldest first. Reading never marks them. */
export async function pendingAccountNotices({
  userId,
}: {
  userId: string;
}): Promise<PendingNotice[]> {
  return getDb()
    .select({ id: accountNotices.id, data: accountNotices.data })
    .from(accountNotices)
    .where(and(eq(accountNotices.userId, userId), isNull(accountNotices.seenAt)))
    .orderBy(asc(accountNotices.createdAt), asc(accountNotices.id));
}

/**
 * Marks the given notices of the user seen (once shown); another user's ids change nothing.
 * Answers how many were still unseen.
 */
export async function markAccountNoticesSeen({
  userId,
  ids,
}: {
  userId: string;
  ids: string[];
}): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await getDb()
    .update(accountNotices)
    .set({ seenAt: new Date() })
    .where(
      and(
        eq(accountNotices.userId, userId),
        inArray(accountNotices.id, ids),
        isNull(accountNotices.seenAt),
      ),
    )
    .returning({ id: accountNotices.id });
  return rows.length;
}
