// Account linking for MCP tool servers: a guest's servers move to the account it joins, sealed
// tokens, tool lists and read-only marks included, so the guest's agents keep their tools. A
// slug both own is kept twice: the guest's server is renamed `<slug>-guest` (then `-guest-2`,
// …), and the guest's agents that allow `mcp:<slug>/…` follow the new slug.
import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { parseMcpAllow } from "@/core/mcp-tool-names";
import { getDb } from "../client";
import { agentProfiles, toolServers } from "../schema";
import { guestSlugFor } from "./profile-transfer";

/** A server slug's length limit (the `mcp:<slug>/…` allow pattern). */
const SERVER_SLUG_MAX = 32;

/** `allow` with every `mcp:<from>/…` entry naming `to` instead. */
export function renameServerInAllow(allow: readonly string[], from: string, to: string): string[] {
  return allow.map((entry) => {
    const parsed = parseMcpAllow(entry);
    return parsed?.slug === from ? `mcp:${to}/${parsed.tool}` : entry;
  });
}

/**
 * Moves the guest's tool servers to the account; answers how many were renamed. Must run before
 * the guest's profiles move: until then the agents whose allow-lists follow a rename are told
 * apart from the account's by their owner.
 */
export async function transferToolServers({
  fromUserId,
  toUserId,
}: {
  fromUserId: string;
  toUserId: string;
}): Promise<number> {
  return getDb().transaction(async (tx) => {
    const slugsOf = (userId: string) =>
      tx
        .select({ slug: toolServers.slug })
        .from(toolServers)
        .where(eq(toolServers.userId, userId))
        .orderBy(asc(toolServers.slug))
        .for("update");
    const account = new Set((await slugsOf(toUserId)).map((r) => r.slug));
    const guest = (await slugsOf(fromUserId)).map((r) => r.slug);
    if (guest.length === 0) return 0;
    const taken = new Set([...account, ...guest]);
    const renames: { from: string; to: string }[] = [];
    for (const slug of guest) {
      if (!account.has(slug)) continue;
      const to = guestSlugFor(slug, taken, SERVER_SLUG_MAX);
      taken.add(to);
      renames.push({ from: slug, to });
      await tx
        .update(toolServers)
        .set({ slug: to, updatedAt: new Date() })
        .where(and(eq(toolServers.userId, fromUserId), eq(toolServers.slug, slug)));
    }
    if (renames.length > 0) {
      const profiles = await tx
        .select({ id: agentProfiles.id, toolsAllow: agentProfiles.toolsAllow })
        .from(agentProfiles)
        .where(eq(agentProfiles.userId, fromUserId))
        .for("update");
      for (const profile of profiles) {
        const allow = renames.reduce(
          (list, { from, to }) => renameServerInAllow(list, from, to),
          profile.toolsAllow,
        );
        if (allow.every((entry, i) => entry === profile.toolsAllow[i])) continue;
        await tx
          .update(agentProfiles)
          .set({ toolsAllow: allow })
          .where(and(eq(agentProfiles.userId, fromUserId), eq(agentProfiles.id, profile.id)));
      }
    }
    await tx
      .update(toolServers)
      .set({ userId: toUserId })
      .where(eq(toolServers.userId, fromUserId));
    return renames.length;
  });
}
