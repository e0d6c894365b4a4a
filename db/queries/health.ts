import "server-only";
import { sql } from "drizzle-orm";
import { type DatabaseKind, getDatabase } from "../client";

export async function pingDatabase(): Promise<{ ok: boolean; kind: DatabaseKind }> {
  const handle = getDatabase();
  try {
    await handle.db.execute(sql`select 1`);
    return { ok: true, kind: handle.kind };
  } catch {
    return { ok: false, kind: handle.kind };
  }
}
