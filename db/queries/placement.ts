import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { BatonError } from "@/core/errors";
import { getDb } from "../client";
import { type Message, messageColumns, messages } from "../schema";
import { allocateSeq, messageRow, type NewMessage } from "./messages";

/**
 * Stores an assistant message directly under `anchorId` (the question it answers, or the
 * previous message of the same run): every later message moves down one seq. Messages queued
 * while a reply was written thus keep their place below it, and a recovered answer lands under
 * its own question, never at the end of the thread. The seq shift happens under the thread's
 * row lock (taken by allocateSeq), which every insert and reset commit also takes.
 */
export async function appendMessageAfter({
  userId,
  threadId,
  sessionId,
  anchorId,
  message,
}: {
  userId: string;
  threadId: string;
  sessionId: string;
  anchorId: string;
  message: NewMessage;
}): Promise<Message> {
  return getDb().transaction(async (tx) => {
    const next = await allocateSeq(tx, { userId, threadId });
    const [anchor] = await tx
      .select({ seq: messages.seq })
      .from(messages)
      .where(and(eq(messages.threadId, threadId), eq(messages.id, anchorId)));
    let seq = next;
    if (anchor && anchor.seq + 1 < next) {
      seq = anchor.seq + 1;
      // Two steps: a unique (thread, seq) index is checked row by row, so `seq + 1` in place
      // could collide midway. Negative seqs are never used otherwise.
      const later = and(eq(messages.threadId, threadId), gt(messages.seq, anchor.seq));
      await tx
        .update(messages)
        .set({ seq: sql`-(${messages.seq} + 1)` })
        .where(later);
      await tx
        .update(messages)
        .set({ seq: sql`-${messages.seq}` })
        .where(and(eq(messages.threadId, threadId), lt(messages.seq, 0)));
    }
    const [row] = await tx
      .insert(messages)
      .values(messageRow({ threadId, sessionId, seq, message }))
      .onConflictDoNothing()
      .returning(messageColumns);
    if (!row) throw new BatonError("conflict:message", "A message with this id already exists.");
    return row;
  });
}
