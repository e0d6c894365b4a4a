// This server process as the database knows it: an instance row with a heartbeat. Every reset
// lease and run records the instance holding it, so a restarted or surviving server can tell a
// lease or run whose holder died (and take it over) from one that is merely slow.
import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { DatabaseKind } from "@/db/client";
import {
  HEARTBEAT_MS,
  heartbeat,
  listOtherRunningInstances,
  markInstanceStopped,
  registerInstance,
  setSelfInstance,
} from "@/db/queries/instances";

interface InstanceState {
  id: string;
  startedAt: Date;
  ready: Promise<string> | null;
  timer: NodeJS.Timeout | null;
}

const holder = globalThis as unknown as { batonInstance?: InstanceState };

function state(): InstanceState {
  holder.batonInstance ??= { id: randomUUID(), startedAt: new Date(), ready: null, timer: null };
  return holder.batonInstance;
}

/** When this process started (messages older than that were accepted by another process). */
export function instanceStartedAt(): Date {
  return state().startedAt;
}

/** This process's instance id, registered (once) with a running heartbeat. */
export function currentInstance(): Promise<string> {
  const s = state();
  s.ready ??= (async () => {
    await registerInstance({ id: s.id, host: hostname(), pid: process.pid });
    setSelfInstance(s.id);
    s.timer = setInterval(() => {
      heartbeat(s.id).catch(() => undefined); // a missed beat only risks looking stale later
    }, HEARTBEAT_MS);
    s.timer.unref();
    return s.id;
  })().catch((error) => {
    s.ready = null;
    throw error;
  });
  return s.ready;
}

/**
 * At start-up: marks instances that cannot be running any more as stopped. With PGlite the
 * folder admits one process, so every other instance is gone. With a Postgres server other
 * servers may be alive; an instance of this host whose process is gone (or that had this very
 * pid — a restarted container) is not. The rest are judged by their heartbeat.
 */
export async function retireDeadInstances(kind: DatabaseKind): Promise<string[]> {
  const self = await currentInstance();
  const host = hostname();
  const dead: string[] = [];
  for (const other of await listOtherRunningInstances(self)) {
    const gone = kind === "pglite" || (other.host === host && !processAlive(other.pid));
    if (gone) {
      await markInstanceStopped(other.id);
      dead.push(other.id);
    }
  }
  return dead;
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return false; // an earlier process with our pid: a restart
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
