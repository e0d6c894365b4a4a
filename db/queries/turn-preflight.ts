// What a chat turn on an existing thread must know before it stores the user's message, read in
// one statement: what holds the newest session (a handoff draft awaiting review, and whether one
// is past its time and must be expired first; a reset in flight), whether a run waits for an
// approval the new message leaves unanswered, and whether the message's id is stored already (an
// edit). Each alone is in reset-drafts.ts, resets.ts, runs.ts and messages.ts.
import "server-only";
import { and, desc, eq, lte, sql } from "drizzle-orm";
import { getDb } from "../client";
import { ownedThread } from "../owned";
import { messages, resetDrafts, runs, threadResets, threads } from "../schema";
import { activeResetOf } from "./resets";

export interface TurnPreflight {
  /** A draft awaiting review is past its expiry: expire it before trusting `draftFrom`. */
  draftDue: boolean;
  /** The session number of the newest draft awaiting review, if any. */
  draftFrom: number | null;
  /** The session number a running reset ends, if one is in flight. */
  resetFrom: number | null;
  /** A run of the thread is parked on an approval. */
  awaitingApproval: boolean;
  /** A message with the request's id is stored in the thread. */
  messageStored: boolean;
}

const NONE: TurnPreflight = {
  draftDue: false,
  draftFrom: null,
  resetFrom: null,
  awaitingApproval: false,
  messageStored: false,
};

/** The answers for the user's thread; all "no" when the thread is not the user's. */
export async function turnPreflight({
  userId,
  threadId,
  messageId,
}: {
  userId: string;
  threadId: string;
  /** The request's message id, when it carries one. */
  messageId?: string;
}): Promise<TurnPreflight> {
  const db = getDb();
  const awaiting = and(
    eq(resetDrafts.threadId, threadId),
    eq(resetDrafts.state, "awaiting_review"),
  );
  const due = db
    .select({ one: sql`1` })
    .from(resetDrafts)
    .where(and(awaiting, lte(resetDrafts.expiresAt, sql`now()`)));
  const draft = db
    .select({ from: resetDrafts.fromSession })
    .from(resetDrafts)
    .where(awaiting)
    .orderBy(desc(resetDrafts.fromSession))
    .limit(1);
  const reset = db
    .select({ from: threadResets.fromSession })
    .from(threadResets)
    .where(activeResetOf(threadId))
    .limit(1);
  const approval = db
    .select({ one: sql`1` })
    .from(runs)
    .where(and(eq(runs.threadId, threadId), eq(runs.status, "awaiting_approval")));
  const stored = messageId
    ? db
        .select({ one: sql`1` })
        .from(messages)
        .where(and(eq(messages.threadId, threadId), eq(messages.id, messageId)))
    : null;
  const [row] = await db
    .select({
      draftDue: sql<boolean>`exists ${due}`,
      draftFrom: sql<number | null>`${draft}`,
      resetFrom: sql<number | null>`${reset}`,
      awaitingApproval: sql<boolean>`exists ${approval}`,
      messageStored: stored ? sql<boolean>`exists ${stored}` : sql<boolean>`false`,
    })
    .from(threads)
    .where(ownedThread(userId, threadId));
  if (!row) return NONE;
  return {
    draftDue: row.draftDue === true,
    draftFrom: row.draftFrom === null ? null : Number(row.draftFrom),
    resetFrom: row.resetFrom === null ? null : Number(row.resetFrom),
    awaitingApproval: row.awaitingApproval === true,
    messageStored: row.messageStored === true,
  };
}
