import "server-only";
import { and, eq, isNull, lt, ne, sql } from "drizzle-orm";
import { getDb } from "../client";
import { type ServerInstance, serverInstances } from "../schema";

/** A live instance refreshes its heartbeat this often … */
export const HEARTBEAT_MS = 2_000;
/** … and one whose heartbeat is older than this is gone. */
const INSTANCE_STALE_SECONDS = 15;

const holder = globalThis as unknown as { batonSelfInstance?: string };

/**
 * This process's own instance is live by definition: a heartbeat delayed by a busy event loop
 * must never make a server give up its own leases and runs.
 */
export function setSelfInstance(id: string): void {
  holder.batonSelfInstance = id;
}

/**
 * SQL that is true when `instanceColumn` names a live server instance. Leases and runs are held
 * by an instance: when it is gone (stopped, found dead, or silent for INSTANCE_STALE_SECONDS)
 * what it held is free.
 */
export const instanceIsLive = (instanceColumn: unknown) =>
  sql`(coalesce(${instanceColumn} = ${holder.batonSelfInstance ?? ""}, false) or exists (select 1 from ${serverInstances} where ${serverInstances.id} = ${instanceColumn} and ${serverInstances.stoppedAt} is null and ${serverInstances.heartbeatAt} > now() - make_interval(secs => ${INSTANCE_STALE_SECONDS})))`;

export async function registerInstance(row: { id: string; host: string; pid: number }) {
  await getDb()
    .insert(serverInstances)
    .values(row)
    .onConflictDoUpdate({
      target: serverInstances.id,
      set: { heartbeatAt: sql`now()`, stoppedAt: null },
    });
}

export async function heartbeat(id: string): Promise<void> {
  await getDb()
    .update(serverInstances)
    .set({ heartbeatAt: sql`now()` })
    .where(and(eq(serverInstances.id, id), isNull(serverInstances.stoppedAt)));
}

export async function markInstanceStopped(id: string): Promise<void> {
  await getDb()
    .update(serverInstances)
    .set({ stoppedAt: sql`now()` })
    .where(and(eq(serverInstances.id, id), isNull(serverInstances.stoppedAt)));
}

/** Instances other than `self` not yet marked stopped. */
export async function listOtherRunningInstances(self: string): Promise<ServerInstance[]> {
  return getDb()
    .select()
    .from(serverInstances)
    .where(and(ne(serverInstances.id, self), isNull(serverInstances.stoppedAt)));
}

/** Marks instances silent for longer than the stale limit as stopped; returns their ids. */
export async function markSilentInstancesStopped(): Promise<string[]> {
  const rows = await getDb()
    .update(serverInstances)
    .set({ stoppedAt: sql`now()` })
    .where(
      and(
        isNull(serverInstances.stoppedAt),
        lt(
          serverInstances.heartbeatAt,
          sql`now() - make_interval(secs => ${INSTANCE_STALE_SECONDS})`,
        ),
      ),
    )
    .returning({ id: serverInstances.id });
  return rows.map((r) => r.id);
}
