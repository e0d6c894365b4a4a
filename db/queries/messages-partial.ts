import "server-only";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "../client";
import { type Message, messageColumns, messages } from "../schema";
import { owned } from "./messages";

/**
 * A streaming reply's parts so far. Only while the row is still `partial`: a save that arrives
 * after the final store (or after recovery marked the row) changes nothing.
 */
export async function savePartialParts({
  userId,
  threadId,
  id,
  parts,
}: {
  userId: string;
  threadId: string;
  id: string;
  parts: unknown[];
}): Promise<void> {
  await getDb()
    .update(messages)
    .set({ parts, updatedAt: new Date() })
    .where(
      and(
        eq(messages.threadId, threadId),
        eq(messages.id, id),
        eq(messages.status, "partial"),
        owned(userId),
      ),
    );
}

/** Drops an assistant row a dead run left empty (its request is then answered afresh). */
export async function deleteEmptyReply({
  threadId,
  id,
}: {
  threadId: string;
  id: string;
}): Promise<void> {
  await getDb()
    .delete(messages)
    .where(
      and(
        eq(messages.threadId, threadId),
        eq(messages.id, id),
        eq(messages.role, "assistant"),
        sql`jsonb_array_length(${messages.parts}) = 0`,
      ),
    );
}

/**
 * Recovery's verdict on a dead run's reply, written only if the row is as it was judged: a row
 * changed since (a run that was not dead after all stored its final parts) is left alone.
 */
export async function settleReplyIfUnchanged({
  threadId,
  id,
  seenUpdatedAt,
  patch,
}: {
  threadId: string;
  id: string;
  seenUpdatedAt: Date;
  patch: { parts: unknown[]; status: "interrupted" | "partial"; tokenCount: number };
}): Promise<Message | null> {
  const [row] = await getDb()
    .update(messages)
    .set({ ...patch, updatedAt: new Date() })
    .where(
      and(
        eq(messages.threadId, threadId),
        eq(messages.id, id),
        // Read back as a JS Date, the time has lost its microseconds.
        sql`date_trunc('milliseconds', ${messages.updatedAt}) = ${seenUpdatedAt.toISOString()}::timestamptz`,
      ),
    )
    .returning(messageColumns);
  return row ?? null;
}
