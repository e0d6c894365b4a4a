import "server-only";
import { and, desc, eq, ilike, lt, or } from "drizzle-orm";
import { getDb } from "../client";
import { ownedThread } from "../owned";
import {
  type ChatSession,
  type Message,
  messageColumns,
  messages,
  runs,
  sessions,
  type Thread,
  threads,
} from "../schema";
import { isSameMessage, type NewMessage } from "./messages";
import { holdProfileForThread } from "./profiles";

export interface ThreadCursor {
  updatedAt: string;
  id: string;
}

/** `text` as a literal inside a LIKE pattern: its wildcards and the escape character escaped. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listThreads({
  userId,
  cursor,
  limit,
  titleContains,
}: {
  userId: string;
  cursor?: ThreadCursor;
  limit: number;
  /** Only threads whose title contains this text (case-insensitive). */
  titleContains?: string;
}): Promise<{ threads: Thread[]; nextCursor: ThreadCursor | null }> {
  const db = getDb();
  const after = cursor
    ? or(
        lt(threads.updatedAt, new Date(cursor.updatedAt)),
        and(eq(threads.updatedAt, new Date(cursor.updatedAt)), lt(threads.id, cursor.id)),
      )
    : undefined;
  const rows = await db
    .select()
    .from(threads)
    .where(
      and(
        eq(threads.userId, userId),
        after,
        titleContains ? ilike(threads.title, `%${likeLiteral(titleContains)}%`) : undefined,
      ),
    )
    .orderBy(desc(threads.updatedAt), desc(threads.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    threads: page,
    nextCursor:
      rows.length > limit && last ? { updatedAt: last.updatedAt.toISOString(), id: last.id } : null,
  };
}

export async function getThread({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<Thread | null> {
  const [row] = await getDb().select().from(threads).where(ownedThread(userId, threadId));
  return row ?? null;
}

/**
 * Creates the thread with its session 1 if it does not exist yet. Returns null when the id
 * belongs to another user, so callers answer 404 without revealing that it exists.
 */
export async function ensureThread({
  userId,
  threadId,
  model,
  title,
}: {
  userId: string;
  threadId: string;
  model: string;
  title: string;
}): Promise<{ thread: Thread; created: boolean } | null> {
  const db = getDb();
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(threads)
      .values({ id: threadId, userId, model, title, createdAt: new Date(), updatedAt: new Date() })
      .onConflictDoNothing({ target: threads.id })
      .returning();
    const created = inserted[0];
    if (created) {
      await tx.insert(sessions).values({ threadId, number: 1, model, trigger: "initial" });
      return { thread: created, created: true };
    }
    const [existing] = await tx.select().from(threads).where(ownedThread(userId, threadId));
    return existing ? { thread: existing, created: false } : null;
  });
}

/**
 * A new thread, its session 1 and its first message in one transaction, so a request that fails
 * never leaves an empty thread behind. Null when the id is taken (by this user or another) —
 * unless it was taken by this very write: a retried transaction (db/retry.ts) whose first
 * attempt committed finds this user's thread holding the same message, and answers what it stored.
 */
export async function createThreadWithMessage({
  userId,
  threadId,
  model,
  profile = "default",
  title,
  message,
}: {
  userId: string;
  threadId: string;
  model: string;
  /** The agent the thread (and its session 1) runs with; one the user lacks is a 400 on `profile`. */
  profile?: string;
  title: string;
  message: NewMessage;
}): Promise<{ thread: Thread; session: ChatSession; message: Message } | null> {
  return getDb().transaction(async (tx) => {
    await holdProfileForThread(tx, { userId, profileId: profile });
    const [thread] = await tx
      .insert(threads)
      .values({
        id: threadId,
        userId,
        model,
        profile,
        title,
        nextSeq: 2,
        createdAt: new Date(),
        updatedAt: new Date(),
      })
      .onConflictDoNothing({ target: threads.id })
      .returning();
    if (!thread) {
      const [earlier] = await tx
        .select({ thread: threads, session: sessions, message: messageColumns })
        .from(messages)
        .innerJoin(threads, eq(threads.id, messages.threadId))
        .innerJoin(sessions, eq(sessions.id, messages.sessionId))
        .where(
          and(
            eq(messages.threadId, threadId),
            eq(messages.id, message.id),
            eq(messages.seq, 1),
            eq(threads.userId, userId),
          ),
        );
      return earlier && isSameMessage(earlier.message, message) ? earlier : null;
    }
    const [session] = await tx
      .insert(sessions)
      .values({ threadId, number: 1, model, profile, trigger: "initial" })
      .returning();
    if (!session) throw new Error("session 1 was not created");
    const [row] = await tx
      .insert(messages)
      .values({
        threadId,
        id: message.id,
        sessionId: session.id,
        seq: 1,
        role: message.role,
        parts: message.parts,
        status: message.status,
        model: message.model ?? null,
        tokenCount: message.tokenCount ?? 0,
      })
      .returning(messageColumns);
    if (!row) throw new Error("the first message was not stored");
    // The session as the insert trigger left it (a re-read returns the same): one message, seq 1.
    return { thread, session: { ...session, messageCount: 1, firstSeq: row.seq }, message: row };
  });
}

/**
 * Replaces the thread's title only while it is still `expected`: a generated title never
 * overwrites one the user gave meanwhile. False when the title had changed (or no such thread).
 */
export async function replaceTitleIfUnchanged({
  userId,
  threadId,
  expected,
  title,
}: {
  userId: string;
  threadId: string;
  expected: string;
  title: string;
}): Promise<boolean> {
  const rows = await getDb()
    .update(threads)
    .set({ title })
    .where(and(ownedThread(userId, threadId), eq(threads.title, expected)))
    .returning({ id: threads.id });
  return rows.length > 0;
}

export async function updateThread({
  userId,
  threadId,
  title,
  model,
  profile,
}: {
  userId: string;
  threadId: string;
  title?: string;
  model?: string;
  profile?: string;
}): Promise<Thread | null> {
  const [row] = await getDb()
    .update(threads)
    .set({
      ...(title !== undefined ? { title } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(profile !== undefined ? { profile } : {}),
      // The list is ordered by activity: a rename alone keeps the thread where it was.
      ...(model !== undefined || profile !== undefined ? { updatedAt: new Date() } : {}),
    })
    .where(ownedThread(userId, threadId))
    .returning();
  return row ?? null;
}

export async function deleteThread({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<boolean> {
  const rows = await getDb()
    .delete(threads)
    .where(ownedThread(userId, threadId))
    .returning({ id: threads.id });
  return rows.length > 0;
}

/**
 * Account linking: a guest who signs up keeps every thread it started, with its runs (their
 * timelines and journals), which the guest's deletion would otherwise take with it.
 */
export async function transferThreads({
  fromUserId,
  toUserId,
}: {
  fromUserId: string;
  toUserId: string;
}): Promise<number> {
  return getDb().transaction(async (tx) => {
    const rows = await tx
      .update(threads)
      .set({ userId: toUserId })
      .where(eq(threads.userId, fromUserId))
      .returning({ id: threads.id });
    await tx.update(runs).set({ userId: toUserId }).where(eq(runs.userId, fromUserId));
    return rows.length;
  });
}
