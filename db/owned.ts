// "This thread belongs to this user", written once: every query scoped by the acting user goes
// through the thread's owner, as a condition on `threads` or as a subquery from a row's thread.
import { type AnyColumn, and, eq, type SQL, sql } from "drizzle-orm";
import { threads } from "./schema";

/** A condition on `threads`: the row is `threadId` and `userId` owns it. */
export function ownedThread(userId: string, threadId: string): SQL {
  // and() of two conditions is never undefined; its type allows it for empty argument lists.
  return and(eq(threads.id, threadId), eq(threads.userId, userId)) as SQL;
}

/** A condition on any row with a thread column: its thread is owned by `userId`. */
export function inOwnedThread(userId: string, threadColumn: AnyColumn): SQL {
  return sql`exists (select 1 from ${threads} where ${threads.id} = ${threadColumn} and ${threads.userId} = ${userId})`;
}
