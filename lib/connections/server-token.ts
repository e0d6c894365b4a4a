// A stored server's token as a connection uses it: opened from its sealed form, or found
// unreadable (sealed under another auth secret), in which case the server is marked so and the
// user is asked to enter it again. Never logged, never returned.
import "server-only";
import { updateToolServer } from "@/db/queries/tool-servers";
import type { ToolServer } from "@/db/schema";
import type { ServerTarget } from "./mcp-client";
import { openToken, sealToken } from "./seal";

export const UNREADABLE_TOKEN_MESSAGE =
  "The stored token can no longer be read (the server's secret changed): enter the token again.";

/** The target to connect to, or null when the stored token cannot be opened. */
export function targetOf(row: ToolServer): ServerTarget | null {
  if (row.tokenState === "unreadable") return null;
  if (row.tokenState !== "stored" || !row.tokenSealed) return { url: row.url, token: null };
  const token = openToken(row.tokenSealed);
  return token === null ? null : { url: row.url, token };
}

/** Marks the server's token unreadable (kept sealed: it is useless, not secret-free). */
export async function markTokenUnreadable(row: ToolServer): Promise<ToolServer> {
  const updated = await updateToolServer({
    userId: row.userId,
    id: row.id,
    change: () => ({ tokenState: "unreadable", lastError: UNREADABLE_TOKEN_MESSAGE }),
  });
  return updated ?? row;
}

/**
 * The row as it stands under the current secret: a stored token that no longer opens is
 * marked unreadable first.
 */
export async function withTokenState(row: ToolServer): Promise<ToolServer> {
  if (row.tokenState === "stored" && targetOf(row) === null) return markTokenUnreadable(row);
  return row;
}

/** The columns that store `token` (a string), or clear it (null). */
export function tokenFields(token: string | null) {
  return token === null
    ? { tokenSealed: null, tokenState: "none" as const }
    : { tokenSealed: sealToken(token), tokenState: "stored" as const };
}
