import "server-only";
import { isDeepStrictEqual } from "node:util";
import { and, asc, count, desc, eq, gt, gte, lt, sql } from "drizzle-orm";
import { BatonError } from "@/core/errors";
import type { MessageStatus } from "@/core/types";
import { getDb } from "../client";
import type { Tx } from "../executor";
import { inOwnedThread, ownedThread } from "../owned";
import { type Message, type MessageUsage, messageColumns, messages, threads } from "../schema";

/** Work done in the transaction that stored a new message, with the row it stored. */
export type StoredHook = (tx: Tx, row: Message) => Promise<void>;

export interface NewMessage {
  id: string;
  role: "user" | "assistant";
  parts: unknown[];
  status: MessageStatus;
  model?: string | null;
  /** The agent (profile slug) writing an assistant message. */
  agent?: string | null;
  /** The run writing an assistant message. */
  runId?: string | null;
  usage?: MessageUsage | null;
  tokenCount?: number;
}

/**
 * Allocates the next per-thread sequence number. The UPDATE takes the thread's row lock, which
 * a reset's commit also takes, so a message insert and a session rollover never interleave.
 */
export async function allocateSeq(
  tx: Tx,
  { userId, threadId }: { userId: string; threadId: string },
) {
  const [row] = await tx
    .update(threads)
    .set({ nextSeq: sql`${threads.nextSeq} + 1`, updatedAt: new Date() })
    .where(ownedThread(userId, threadId))
    .returning({ seq: sql<number>`${threads.nextSeq} - 1` });
  if (!row) throw new BatonError("not_found:thread", "Thread not found.");
  return Number(row.seq);
}

/**
 * Whether a stored row is the message being written: the same role and parts. A retried write
 * (db/retry.ts) can meet its own first attempt, which committed although its answer was lost;
 * that is success, while the same id with other content stays a conflict. The parts are
 * compared as JSON, the form they were stored in.
 */
export function isSameMessage(row: Pick<Message, "role" | "parts">, message: NewMessage): boolean {
  return (
    row.role === message.role &&
    isDeepStrictEqual(row.parts, JSON.parse(JSON.stringify(message.parts)) as unknown)
  );
}

/** The row a new message is stored as, at `seq` of its thread. */
export function messageRow({
  threadId,
  sessionId,
  seq,
  message,
}: {
  threadId: string;
  sessionId: string;
  seq: number;
  message: NewMessage;
}) {
  return {
    threadId,
    id: message.id,
    sessionId,
    seq,
    role: message.role,
    parts: message.parts,
    status: message.status,
    model: message.model ?? null,
    agent: message.agent ?? null,
    runId: message.runId ?? null,
    usage: message.usage ?? null,
    tokenCount: message.tokenCount ?? 0,
  };
}

/** Thrown out of the transaction to roll back its seq allocation and answer the stored row. */
class AlreadyStored extends Error {
  constructor(readonly row: Message) {
    super("the message is already stored");
  }
}

export async function appendMessage({
  userId,
  threadId,
  sessionId,
  message,
  onStored,
}: {
  userId: string;
  threadId: string;
  sessionId: string;
  message: NewMessage;
  /** Run in the same transaction when this call stored the row (not when it was stored before). */
  onStored?: StoredHook;
}): Promise<Message> {
  try {
    return await getDb().transaction(async (tx) => {
      const seq = await allocateSeq(tx, { userId, threadId });
      const [row] = await tx
        .insert(messages)
        .values(messageRow({ threadId, sessionId, seq, message }))
        .onConflictDoNothing()
        .returning(messageColumns);
      if (row) {
        await onStored?.(tx, row);
        return row;
      }
      // allocateSeq proved the thread is this user's, so the row with this id is too.
      const [stored] = await tx
        .select(messageColumns)
        .from(messages)
        .where(and(eq(messages.threadId, threadId), eq(messages.id, message.id)));
      if (stored && isSameMessage(stored, message)) throw new AlreadyStored(stored);
      throw new BatonError("conflict:message", "A message with this id already exists.");
    });
  } catch (error) {
    if (error instanceof AlreadyStored) return error.row;
    throw error;
  }
}

export async function updateMessage({
  userId,
  threadId,
  id,
  patch,
}: {
  userId: string;
  threadId: string;
  id: string;
  patch: Partial<
    Pick<Message, "parts" | "status" | "usage" | "model" | "tokenCount" | "sessionId">
  >;
}): Promise<Message | null> {
  const [row] = await getDb()
    .update(messages)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(messages.threadId, threadId), eq(messages.id, id), owned(userId)))
    .returning(messageColumns);
  return row ?? null;
}

/** The message belongs to a thread of `userId`: every query here is scoped by it. */
export const owned = (userId: string) => inOwnedThread(userId, messages.threadId);

export async function getMessage({
  userId,
  threadId,
  id,
}: {
  userId: string;
  threadId: string;
  id: string;
}): Promise<Message | null> {
  const [row] = await getDb()
    .select(messageColumns)
    .from(messages)
    .where(and(eq(messages.threadId, threadId), eq(messages.id, id), owned(userId)));
  return row ?? null;
}

/** A session's messages in order: what the model sees (before compaction is applied). */
export async function listSessionMessages({
  userId,
  threadId,
  sessionId,
}: {
  userId: string;
  threadId: string;
  sessionId: string;
}): Promise<Message[]> {
  return getDb()
    .select(messageColumns)
    .from(messages)
    .where(and(eq(messages.threadId, threadId), eq(messages.sessionId, sessionId), owned(userId)))
    .orderBy(asc(messages.seq));
}

/**
 * The newest `limit` messages before `beforeSeq` (or the newest overall), oldest first; with
 * `fromSeq`, the oldest `limit` messages from that seq on (for a page that opens a session), and
 * `hasMore` says whether later messages exist.
 */
export async function listThreadMessages({
  userId,
  threadId,
  beforeSeq,
  fromSeq,
  limit,
}: {
  userId: string;
  threadId: string;
  beforeSeq?: number;
  fromSeq?: number;
  limit: number;
}): Promise<{ messages: Message[]; hasMore: boolean }> {
  if (fromSeq !== undefined) {
    const rows = await getDb()
      .select(messageColumns)
      .from(messages)
      .where(and(eq(messages.threadId, threadId), gte(messages.seq, fromSeq), owned(userId)))
      .orderBy(asc(messages.seq))
      .limit(limit + 1);
    return { messages: rows.slice(0, limit), hasMore: rows.length > limit };
  }
  const rows = await getDb()
    .select(messageColumns)
    .from(messages)
    .where(
      and(
        eq(messages.threadId, threadId),
        beforeSeq !== undefined ? lt(messages.seq, beforeSeq) : undefined,
        owned(userId),
      ),
    )
    .orderBy(desc(messages.seq))
    .limit(limit + 1);
  const hasMore = rows.length > limit;
  return { messages: rows.slice(0, limit).reverse(), hasMore };
}

/**
 * Edit-and-resend and regenerate: drop what follows `seq` in one session. Scoped to the session
 * so an edit can never delete another session's messages.
 */
export async function deleteSessionMessagesAfter({
  userId,
  threadId,
  sessionId,
  seq,
  tx,
}: {
  userId: string;
  threadId: string;
  sessionId: string;
  seq: number;
  /** The transaction to delete in (by default its own statement). */
  tx?: Tx;
}): Promise<number> {
  const rows = await (tx ?? getDb())
    .delete(messages)
    .where(
      and(
        eq(messages.threadId, threadId),
        eq(messages.sessionId, sessionId),
        gt(messages.seq, seq),
        owned(userId),
      ),
    )
    .returning({ id: messages.id });
  return rows.length;
}

export async function countThreadMessages({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<number> {
  const [row] = await getDb()
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.threadId, threadId), owned(userId)));
  return Number(row?.n ?? 0);
}

/**
 * Whether the thread has a message before `seq` (for the cursor of a page read forward). Ordered
 * so the planner walks `messages_thread_seq_uq` back from `seq` (one probe) instead of scanning
 * the thread's rows for any match.
 */
export async function hasMessagesBefore({
  userId,
  threadId,
  seq,
}: {
  userId: string;
  threadId: string;
  seq: number;
}): Promise<boolean> {
  const [row] = await getDb()
    .select({ seq: messages.seq })
    .from(messages)
    .where(and(eq(messages.threadId, threadId), lt(messages.seq, seq), owned(userId)))
    .orderBy(desc(messages.seq))
    .limit(1);
  return row !== undefined;
}
