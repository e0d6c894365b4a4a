// The PGlite folder lock's judgement: who may take a folder, and who is refused. Every case runs
// on a real folder with its own pid, host and clock, so the container case (every server pid 1)
// and the races of several starters can be played out exactly.
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  acquireFolderLock,
  type FolderLock,
  FolderLockedError,
  HEARTBEAT_MS,
  LOCK_FILE,
  type LockContext,
  type LockRecord,
  STALE_MS,
} from "./server-lock";

let folder: string;
let clock: number;
const alive = new Set<number>();

beforeEach(() => {
  folder = mkdtempSync(path.join(os.tmpdir(), "baton-lock-"));
  clock = Date.parse("2030-01-01T00:00:00Z");
  alive.clear();
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** A process on `host` with `pid`; its sleep advances the shared clock. */
function proc(pid: number, host = "h1", onSleep?: () => void): Partial<LockContext> {
  return {
    pid,
    host,
    instance: `i-${pid}-${host}-${Math.random().toString(16).slice(2)}`,
    now: () => clock,
    pidAlive: (p) => alive.has(p),
    sleep: async (ms) => {
      clock += ms;
      onSleep?.();
    },
  };
}

const lost: (LockRecord | null)[] = [];
async function take(ctx: Partial<LockContext>, beforeTakeover?: () => Promise<void>) {
  const lock = await acquireFolderLock(folder, {
    context: ctx,
    passive: true,
    onLost: (holder) => lost.push(holder),
    beforeTakeover,
  });
  alive.add(lock.record.pid);
  return lock;
}

function onDisk(): LockRecord {
  return JSON.parse(readFileSync(path.join(folder, LOCK_FILE), "utf8"));
}

describe("PGlite folder lock", () => {
  beforeEach(() => {
    lost.length = 0;
  });

  it("writes pid, host, start, heartbeat and instance, and removes the file on release", async () => {
    const lock = await take(proc(100));
    expect(onDisk()).toEqual({
      pid: 100,
      host: "h1",
      startedAt: "2030-01-01T00:00:00.000Z",
      heartbeatAt: "2030-01-01T00:00:00.000Z",
      instance: lock.record.instance,
    });
    clock += HEARTBEAT_MS;
    lock.beat();
    expect(onDisk().heartbeatAt).toBe("2030-01-01T00:00:02.000Z");
    lock.release();
    expect(existsSync(path.join(folder, LOCK_FILE))).toBe(false);
  });

  it("refuses a second process on the host while the holder lives, naming the folder", async () => {
    await take(proc(100));
    clock += 5_000;
    const error = await take(proc(200)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FolderLockedError);
    expect((error as Error).message).toContain(`pid 100 on host h1`);
    expect((error as Error).message).toContain(`the data folder ${path.resolve(folder)}`);
    expect(onDisk().pid).toBe(100);
  });

  it("takes over at once from a dead pid on the same host, and the old holder learns it lost", async () => {
    const first = await take(proc(100));
    alive.delete(100); // SIGKILLed
    const second = await take(proc(200));
    expect(onDisk().instance).toBe(second.record.instance);
    first.beat();
    expect(lost.map((r) => r?.instance)).toEqual([second.record.instance]);
    expect(onDisk().instance).toBe(second.record.instance);
  });

  it("takes over a heartbeat older than the stale window even when the pid exists", async () => {
    await take(proc(100));
    clock += STALE_MS + 1;
    const second = await take(proc(200)); // pid 100 is "alive": reused by some other process
    expect(onDisk().instance).toBe(second.record.instance);
  });

  describe("in a container, where every server is pid 1", () => {
    it("takes over the lock of a previous pid 1 whose heartbeat is old", async () => {
      await take(proc(1, "c1"));
      clock += STALE_MS + 1;
      const second = await take(proc(1, "c1"));
      expect(onDisk().instance).toBe(second.record.instance);
    });

    it("takes over a fresh-looking lock once its heartbeat has not moved for the window", async () => {
      await take(proc(1, "c1"));
      clock += 1_000; // restarted a second after the crash: the heartbeat still looks fresh
      const start = clock;
      const second = await take(proc(1, "c1"));
      expect(onDisk().instance).toBe(second.record.instance);
      expect(clock - start).toBeGreaterThan(STALE_MS - 1_000);
    });

    it("refuses when the holder's heartbeat moves (another live pid 1 on the same folder)", async () => {
      const first = await take(proc(1, "c1"));
      let slept = 0;
      const contender = proc(1, "c1", () => {
        slept += WATCH_STEP;
        if (slept % HEARTBEAT_MS === 0) first.beat();
      });
      const error = await take(contender).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FolderLockedError);
      expect(onDisk().instance).toBe(first.record.instance);
      expect(lost).toEqual([]);
    });
  });

  it("watches a lock from another host instead of trusting either clock or pid", async () => {
    const first = await take(proc(100, "other"));
    const beating = proc(200, "h1", () => first.beat());
    await expect(take(beating)).rejects.toBeInstanceOf(FolderLockedError);
    const silent = await take(proc(300, "h1"));
    expect(onDisk().instance).toBe(silent.record.instance);
  });

  it("treats an unreadable lock file as being written while new, and as stale once old", async () => {
    const file = path.join(folder, LOCK_FILE);
    writeFileSync(file, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const lock = await take({ ...proc(100), now: Date.now });
    expect(onDisk().instance).toBe(lock.record.instance);
  });

  it("refuses an unreadable lock file that turns into a live holder's record", async () => {
    const file = path.join(folder, LOCK_FILE);
    writeFileSync(file, ""); // created with O_EXCL, not written yet
    clock = Date.now(); // the file's mtime is on the real clock
    alive.add(100);
    const finishWriting = () => {
      const now = new Date(clock).toISOString();
      const record = { pid: 100, host: "h1", startedAt: now, heartbeatAt: now, instance: "w" };
      writeFileSync(file, JSON.stringify(record));
    };
    await expect(take(proc(200, "h1", finishWriting))).rejects.toBeInstanceOf(FolderLockedError);
    expect(onDisk().instance).toBe("w");
  });

  it("lets exactly one of two starters take a stale lock when one overtakes the other", async () => {
    await take(proc(100));
    alive.delete(100);
    let overtaker: FolderLock | undefined;
    const slow = take(proc(200), async () => {
      overtaker ??= await take(proc(300)); // judged stale by both; the second one runs first
    });
    await expect(slow).rejects.toBeInstanceOf(FolderLockedError);
    expect(overtaker).toBeDefined();
    expect(onDisk().instance).toBe(overtaker?.record.instance);
    overtaker?.beat();
    expect(lost).toEqual([]);
  });

  it("lets exactly one of several concurrent starters take a stale lock", async () => {
    await take(proc(100));
    alive.delete(100);
    for (const pid of [201, 202, 203, 204, 205]) alive.add(pid); // live processes, all starting
    const results = await Promise.allSettled(
      [201, 202, 203, 204, 205].map((pid) => take(proc(pid))),
    );
    const winners = results.filter((r) => r.status === "fulfilled");
    expect(winners).toHaveLength(1);
    const winner = (winners[0] as PromiseFulfilledResult<FolderLock>).value;
    expect(onDisk().instance).toBe(winner.record.instance);
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toBeInstanceOf(FolderLockedError);
    }
  });
});

const WATCH_STEP = 250;
