// A user's MCP tool servers (docs/connections.md). Every query is scoped by the owner: another
// user's server is not found. The sealed token is read here and nowhere returned by the API.
import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { BatonError } from "@/core/errors";
import { getDb } from "../client";
import { type ToolServer, toolServers } from "../schema";

export type ToolServerFields = Partial<
  Pick<
    ToolServer,
    | "url"
    | "tokenSealed"
    | "tokenState"
    | "tools"
    | "readOnlyTools"
    | "toolsFetchedAt"
    | "lastError"
  >
>;

const owned = (userId: string, id: string) =>
  and(eq(toolServers.userId, userId), eq(toolServers.id, id));

/** The user's servers by slug. */
export async function listToolServers({ userId }: { userId: string }): Promise<ToolServer[]> {
  return getDb()
    .select()
    .from(toolServers)
    .where(eq(toolServers.userId, userId))
    .orderBy(asc(toolServers.slug));
}

export async function getToolServer({
  userId,
  id,
}: {
  userId: string;
  id: string;
}): Promise<ToolServer | null> {
  const [row] = await getDb().select().from(toolServers).where(owned(userId, id));
  return row ?? null;
}

/** @throws BatonError `conflict:tool_server_exists` when the user already has this slug. */
export async function insertToolServer({
  userId,
  slug,
  fields,
}: {
  userId: string;
  slug: string;
  fields: ToolServerFields & { url: string };
}): Promise<ToolServer> {
  const now = new Date();
  const [row] = await getDb()
    .insert(toolServers)
    .values({ ...fields, userId, slug, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: [toolServers.userId, toolServers.slug] })
    .returning();
  if (!row) {
    throw new BatonError(
      "conflict:tool_server_exists",
      `You already have a tool server "${slug}".`,
      { slug: ["This name is taken by another of your tool servers."] },
    );
  }
  return row;
}

/**
 * Changes the user's server to what `change` makes of the stored row, read under a row lock so
 * concurrent changes do not lose each other's fields. Null when there is none.
 */
export async function updateToolServer({
  userId,
  id,
  change,
}: {
  userId: string;
  id: string;
  change: (row: ToolServer) => ToolServerFields;
}): Promise<ToolServer | null> {
  return getDb().transaction(async (tx) => {
    const [row] = await tx.select().from(toolServers).where(owned(userId, id)).for("update");
    if (!row) return null;
    const [updated] = await tx
      .update(toolServers)
      .set({ ...change(row), updatedAt: new Date() })
      .where(owned(userId, id))
      .returning();
    return updated ?? null;
  });
}

/** Deletes the user's server; false when there is none. */
export async function deleteToolServer({
  userId,
  id,
}: {
  userId: string;
  id: string;
}): Promise<boolean> {
  const deleted = await getDb()
    .delete(toolServers)
    .where(owned(userId, id))
    .returning({ id: toolServers.id });
  return deleted.length > 0;
}
