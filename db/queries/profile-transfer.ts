// Account linking for agent profiles: a guest's profiles move to the account it joins, so the
// threads that move with it still find their agent. A slug both own is kept twice: the guest's
// is renamed `<slug>-guest` (then `-guest-2`, …), and the guest's threads, sessions and
// messages that name it follow the new slug.
import "server-only";
import { and, asc, eq, inArray } from "drizzle-orm";
import { getDb } from "../client";
import { agentProfiles, messages, sessions, threads } from "../schema";

const SLUG_MAX = 40;

/** A slug for the guest's `slug` that neither owner uses, within the length limit `max`. */
export function guestSlugFor(slug: string, taken: ReadonlySet<string>, max = SLUG_MAX): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? "-guest" : `-guest-${n}`;
    const candidate = `${slug.slice(0, max - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Moves the guest's profiles to the account; answers how many were renamed. Must run before the
 * guest's threads move: until then the threads that ran with the guest's profile are told apart
 * from the account's by their owner.
 */
export async function transferProfiles({
  fromUserId,
  toUserId,
}: {
  fromUserId: string;
  toUserId: string;
}): Promise<number> {
  return getDb().transaction(async (tx) => {
    const account = await tx
      .select({ id: agentProfiles.id })
      .from(agentProfiles)
      .where(eq(agentProfiles.userId, toUserId))
      .for("update");
    const guest = await tx
      .select({ id: agentProfiles.id })
      .from(agentProfiles)
      .where(eq(agentProfiles.userId, fromUserId))
      .orderBy(asc(agentProfiles.id))
      .for("update");
    if (guest.length === 0) return 0;
    const accountSlugs = new Set(account.map((r) => r.id));
    // Every slug either owner holds is taken, so a rename never lands on the guest's own.
    const taken = new Set([...accountSlugs, ...guest.map((r) => r.id)]);
    const guestThreads = tx
      .select({ id: threads.id })
      .from(threads)
      .where(eq(threads.userId, fromUserId));
    let renamed = 0;
    for (const { id: slug } of guest) {
      if (!accountSlugs.has(slug)) continue;
      const next = guestSlugFor(slug, taken);
      taken.add(next);
      renamed++;
      await tx
        .update(agentProfiles)
        .set({ id: next })
        .where(and(eq(agentProfiles.userId, fromUserId), eq(agentProfiles.id, slug)));
      await tx
        .update(threads)
        .set({ profile: next })
        .where(and(eq(threads.userId, fromUserId), eq(threads.profile, slug)));
      await tx
        .update(sessions)
        .set({ profile: next })
        .where(and(inArray(sessions.threadId, guestThreads), eq(sessions.profile, slug)));
      await tx
        .update(messages)
        .set({ agent: next })
        .where(and(inArray(messages.threadId, guestThreads), eq(messages.agent, slug)));
    }
    await tx
      .update(agentProfiles)
      .set({ userId: toUserId })
      .where(eq(agentProfiles.userId, fromUserId));
    return renamed;
  });
}
