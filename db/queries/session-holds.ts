// What holds a thread's newest session against a new message, read in one statement on every
// chat turn: a handoff draft awaiting review (and whether one is past its time, which must be
// expired first), and a reset in flight. Each alone is in reset-drafts.ts and resets.ts.
import "server-only";
import { and, desc, eq, lte, sql } from "drizzle-orm";
import { getDb } from "../client";
import { resetDrafts, threadResets, threads } from "../schema";
import { activeResetOf } from "./resets";

export interface SessionHolds {
  /** A draft awaiting review is past its expiry: expire it before trusting `draftFrom`. */
  draftDue: boolean;
  /** The session number of the newest draft awaiting review, if any. */
  draftFrom: number | null;
  /** The session number a running reset ends, if one is in flight. */
  resetFrom: number | null;
}

const NONE: SessionHolds = { draftDue: false, draftFrom: null, resetFrom: null };

/** The user's thread's holds; none when the thread is not the user's. */
export async function sessionHolds({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<SessionHolds> {
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
  const [row] = await db
    .select({
      draftDue: sql<boolean>`exists ${due}`,
      draftFrom: sql<number | null>`${draft}`,
      resetFrom: sql<number | null>`${reset}`,
    })
    .from(threads)
    .where(and(eq(threads.id, threadId), eq(threads.userId, userId)));
  if (!row) return NONE;
  return {
    draftDue: row.draftDue === true,
    draftFrom: row.draftFrom === null ? null : Number(row.draftFrom),
    resetFrom: row.resetFrom === null ? null : Number(row.resetFrom),
  };
}
