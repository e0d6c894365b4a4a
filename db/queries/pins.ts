// The thread's pins (thread_pins): what every handoff carries in must_preserve, exactly. Reads
// and writes are scoped to the thread's owner; an unpinned item keeps its row as a tombstone.
import "server-only";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { normalizePin } from "@/core/pin-text";
import { cleanPin, pinKeyOf } from "@/core/pins";
import type { Executor } from "../executor";
import { ownedThread } from "../owned";
import { type PinSource, type ThreadPin, threadPins, threads } from "../schema";

export { normalizePin } from "@/core/pin-text";

async function ownsThread(db: Executor, userId: string, threadId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: threads.id })
    .from(threads)
    .where(ownedThread(userId, threadId));
  return row !== undefined;
}

/** Every pin row of the thread, pinned and unpinned, oldest first; null: not the user's thread. */
export async function listThreadPins(
  db: Executor,
  { userId, threadId }: { userId: string; threadId: string },
): Promise<ThreadPin[] | null> {
  if (!(await ownsThread(db, userId, threadId))) return null;
  return db
    .select()
    .from(threadPins)
    .where(eq(threadPins.threadId, threadId))
    .orderBy(asc(threadPins.createdAt), asc(threadPins.id));
}

/** The texts the thread has pinned now, oldest first (what the next handoff carries). */
export async function currentPinTexts(
  db: Executor,
  input: { userId: string; threadId: string },
): Promise<string[]> {
  const rows = (await listThreadPins(db, input)) ?? [];
  return rows.filter((r) => r.state === "pinned").map((r) => r.text);
}

/**
 * Pins `text` (a new row, or a tombstone pinned again), stored masked (cleanPin). `source:
 * "handoff"` never revives a tombstone: a user's unpin wins over a model that lists it again.
 */
export async function pinText(
  db: Executor,
  {
    userId,
    threadId,
    text,
    source,
  }: { userId: string; threadId: string; text: string; source: PinSource },
): Promise<ThreadPin | null> {
  const clean = cleanPin(text);
  if (clean === "") return null;
  if (!(await ownsThread(db, userId, threadId))) return null;
  const normalized = normalizePin(clean);
  const revive = source !== "handoff";
  const [row] = await db
    .insert(threadPins)
    .values({ threadId, text: clean, normalized, source })
    .onConflictDoUpdate({
      target: [threadPins.threadId, threadPins.normalized],
      set: revive
        ? { state: "pinned", updatedAt: sql`now()` }
        : { updatedAt: sql`${threadPins.updatedAt}` },
    })
    .returning();
  return row ?? null;
}

/** Unpins the thread's pin `pinId`; null when there is no such pin on the user's thread. */
export async function unpinById(
  db: Executor,
  { userId, threadId, pinId }: { userId: string; threadId: string; pinId: string },
): Promise<ThreadPin | null> {
  if (!(await ownsThread(db, userId, threadId))) return null;
  const [row] = await db
    .update(threadPins)
    .set({ state: "unpinned", updatedAt: sql`now()` })
    .where(and(eq(threadPins.threadId, threadId), eq(threadPins.id, pinId)))
    .returning();
  return row ?? null;
}

/** Unpins the pins whose text matches one of `texts` (case and spacing ignored). */
export async function unpinTexts(
  db: Executor,
  { userId, threadId, texts }: { userId: string; threadId: string; texts: readonly string[] },
): Promise<number> {
  const keys = [...new Set(texts.map(pinKeyOf).filter((k) => k !== ""))];
  if (keys.length === 0 || !(await ownsThread(db, userId, threadId))) return 0;
  const rows = await db
    .update(threadPins)
    .set({ state: "unpinned", updatedAt: sql`now()` })
    .where(and(eq(threadPins.threadId, threadId), inArray(threadPins.normalized, keys)))
    .returning({ id: threadPins.id });
  return rows.length;
}

/**
 * Pins what a committed handoff carries in must_preserve (source "handoff"), in the commit's
 * transaction: new items become pins, existing pins stay as they are, and a tombstone stays
 * unpinned. Returns how many pins were added.
 */
export async function pinHandoffItems(
  db: Executor,
  { userId, threadId, texts }: { userId: string; threadId: string; texts: readonly string[] },
): Promise<number> {
  const rows = new Map<string, string>();
  for (const item of texts) {
    const clean = cleanPin(item);
    const key = normalizePin(clean);
    if (key !== "" && !rows.has(key)) rows.set(key, clean);
  }
  if (rows.size === 0 || !(await ownsThread(db, userId, threadId))) return 0;
  const added = await db
    .insert(threadPins)
    .values(
      [...rows].map(([normalized, text]) => ({
        threadId,
        text,
        normalized,
        source: "handoff" as const,
      })),
    )
    .onConflictDoNothing({ target: [threadPins.threadId, threadPins.normalized] })
    .returning({ id: threadPins.id });
  return added.length;
}
