// A user's agent profiles, keyed by (owner, slug), and which of the user's threads use one.
// Deleting a profile and pointing a thread at one lock the profile row, so a profile in use is
// never deleted from under a thread that is being moved onto it.
import "server-only";
import { and, asc, count, eq, sql } from "drizzle-orm";
import { BatonError } from "@/core/errors";
import { getDb } from "../client";
import type { Tx } from "../executor";
import { ownedThread } from "../owned";
import { type AgentProfile, agentProfiles, type Thread, threads } from "../schema";

/** The user's own profile with this slug (profiles are keyed by owner and slug). */
export async function getProfile({
  userId,
  profileId,
}: {
  userId: string;
  profileId: string;
}): Promise<AgentProfile | null> {
  const [row] = await getDb()
    .select()
    .from(agentProfiles)
    .where(and(eq(agentProfiles.userId, userId), eq(agentProfiles.id, profileId)));
  return row ?? null;
}

/** The user's profiles by name (case-insensitive), then slug. */
export async function listProfiles({ userId }: { userId: string }): Promise<AgentProfile[]> {
  return getDb()
    .select()
    .from(agentProfiles)
    .where(eq(agentProfiles.userId, userId))
    .orderBy(sql`lower(${agentProfiles.name})`, asc(agentProfiles.id));
}

export type ProfileFields = Omit<AgentProfile, "id" | "userId" | "createdAt" | "updatedAt">;

/** @throws BatonError `conflict:profile_exists` when the user already has this slug. */
export async function createProfile({
  userId,
  profileId,
  fields,
}: {
  userId: string;
  profileId: string;
  fields: ProfileFields;
}): Promise<AgentProfile> {
  const now = new Date();
  const [row] = await getDb()
    .insert(agentProfiles)
    .values({ ...fields, id: profileId, userId, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: [agentProfiles.userId, agentProfiles.id] })
    .returning();
  if (!row) {
    throw new BatonError("conflict:profile_exists", `You already have an agent "${profileId}".`, {
      id: ["This slug is taken by another of your agents."],
    });
  }
  return row;
}

/**
 * Changes the user's profile to what `change` makes of the stored row, read under a row lock so
 * concurrent patches merge instead of losing each other's fields. Null when there is none; what
 * `change` throws rolls the update back.
 */
export async function updateProfile({
  userId,
  profileId,
  change,
}: {
  userId: string;
  profileId: string;
  change: (row: AgentProfile) => Partial<ProfileFields>;
}): Promise<AgentProfile | null> {
  return getDb().transaction(async (tx) => {
    const owned = and(eq(agentProfiles.userId, userId), eq(agentProfiles.id, profileId));
    const [row] = await tx.select().from(agentProfiles).where(owned).for("update");
    if (!row) return null;
    const [updated] = await tx
      .update(agentProfiles)
      .set({ ...change(row), updatedAt: new Date() })
      .where(owned)
      .returning();
    return updated ?? null;
  });
}

function inUseMessage(n: number): string {
  const threadsUse = n === 1 ? "1 thread uses" : `${n} threads use`;
  return `${threadsUse} this agent; move ${n === 1 ? "it" : "them"} to another agent first.`;
}

/**
 * Deletes the user's profile; false when there is none.
 * @throws BatonError `conflict:profile_in_use` (its message gives the count) when threads use it.
 */
export async function deleteProfile({
  userId,
  profileId,
}: {
  userId: string;
  profileId: string;
}): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    const owned = and(eq(agentProfiles.userId, userId), eq(agentProfiles.id, profileId));
    // Held until commit: a thread being moved onto this profile waits, then finds it gone.
    const [locked] = await tx
      .select({ id: agentProfiles.id })
      .from(agentProfiles)
      .where(owned)
      .for("update");
    if (!locked) return false;
    const [using] = await tx
      .select({ n: count() })
      .from(threads)
      .where(and(eq(threads.userId, userId), eq(threads.profile, profileId)));
    const n = Number(using?.n ?? 0);
    if (n > 0) throw new BatonError("conflict:profile_in_use", inUseMessage(n));
    await tx.delete(agentProfiles).where(owned);
    return true;
  });
}

/**
 * Points the user's thread at one of the user's profiles (and renames it when `title` is given).
 * Null when the thread is not the user's.
 * @throws BatonError `bad_request:body` with field `profile` when the user has no such profile.
 */
export async function assignThreadProfile({
  userId,
  threadId,
  profileId,
  title,
}: {
  userId: string;
  threadId: string;
  profileId: string;
  title?: string;
}): Promise<Thread | null> {
  return getDb().transaction(async (tx) => {
    await holdProfileForThread(tx, { userId, profileId });
    const [row] = await tx
      .update(threads)
      .set({ profile: profileId, ...(title !== undefined ? { title } : {}), updatedAt: new Date() })
      .where(ownedThread(userId, threadId))
      .returning();
    return row ?? null;
  });
}

/**
 * Inside a transaction that points a thread at `profileId`: checks the user has it and holds a
 * shared lock on it until commit, so a concurrent delete waits, then counts that thread.
 * @throws BatonError `bad_request:body` with field `profile` when the user has no such profile.
 */
export async function holdProfileForThread(
  tx: Tx,
  { userId, profileId }: { userId: string; profileId: string },
): Promise<void> {
  if (profileId === "default") return;
  const [found] = await tx
    .select({ id: agentProfiles.id })
    .from(agentProfiles)
    .where(and(eq(agentProfiles.userId, userId), eq(agentProfiles.id, profileId)))
    .for("share");
  if (!found) throw unknownProfileError(profileId);
}

/** A request naming an agent the user does not have: a 400 on the `profile` field. */
function unknownProfileError(profileId: string): BatonError {
  return new BatonError("bad_request:body", `There is no agent "${profileId}".`, {
    profile: ["Choose one of your agents."],
  });
}
