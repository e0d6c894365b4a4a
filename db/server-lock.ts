// A PGlite folder admits one process: two servers on one folder both start, both write, and the
// last to close overwrites the other's writes. So whoever opens the folder (the server, and the
// db:migrate and seeding tools) first takes an exclusive lock file beside the database and keeps
// it fresh with a heartbeat; a second process is refused with a message naming the folder.
//
// A lock left behind by a killed process must not block the folder forever. It is stale when its
// heartbeat stopped (older than STALE_MS), or when — on this host — its pid is gone. A live pid is
// not proof on its own: in a container every server is pid 1, so a restarted server finds the
// dead one's lock under its own pid. Then (and for a lock from another host, whose pid cannot be
// checked and whose clock may differ) the starter watches the heartbeat: a live holder refreshes
// it within HEARTBEAT_MS; one that does not for STALE_MS is dead.
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { log } from "@/core/log";

export const LOCK_FILE = "baton-server.lock";
export const HEARTBEAT_MS = 2_000;
export const STALE_MS = 10_000;
/** How often a starter re-reads a lock whose holder it cannot check directly. */
const WATCH_POLL_MS = 250;
/** How many times a starter retries after losing a race for a stale lock. */
const MAX_ATTEMPTS = 5;

export interface LockRecord {
  pid: number;
  host: string;
  startedAt: string;
  heartbeatAt: string;
  instance: string;
}

/** What a starter knows about itself; tests pass their own. */
export interface LockContext {
  pid: number;
  host: string;
  instance: string;
  now: () => number;
  /** Whether a process with this pid exists on this host. */
  pidAlive: (pid: number) => boolean;
  sleep: (ms: number) => Promise<void>;
}

type LockVerdict = "live" | "stale" | "watch";

/** Judges a lock record from one reading. "watch": fresh, but only a heartbeat can tell. */
function judgeLock(record: LockRecord, ctx: LockContext): LockVerdict {
  if (record.host !== ctx.host) return "watch"; // another clock, a pid we cannot see
  const age = ctx.now() - Date.parse(record.heartbeatAt);
  if (!(age <= STALE_MS)) return "stale"; // also an unreadable date
  if (record.pid === ctx.pid) return "watch"; // our own pid: a previous life of this container
  return ctx.pidAlive(record.pid) ? "live" : "stale";
}

export class FolderLockedError extends Error {
  constructor(
    readonly folder: string,
    readonly holder: LockRecord | null,
  ) {
    const who = holder
      ? `Another Baton server (pid ${holder.pid} on host ${holder.host}, started ${holder.startedAt})`
      : "Another Baton process";
    super(
      `${who} is using the data folder ${folder}. Stop it, or set BATON_DATA_DIR to another folder.`,
    );
    this.name = "FolderLockedError";
  }
}

export interface FolderLock {
  folder: string;
  record: LockRecord;
  /** Refreshes the heartbeat now (the timer calls it every HEARTBEAT_MS). */
  beat: () => void;
  /** Removes the lock if it is still ours, and stops the heartbeat. */
  release: () => void;
}

export interface AcquireOptions {
  /** Overrides for tests. */
  context?: Partial<LockContext>;
  /** Called when the heartbeat finds the lock taken by another process (default: exit 1). */
  onLost?: (holder: LockRecord | null) => void;
  /** No heartbeat timer or exit hooks (tests drive `beat` themselves). */
  passive?: boolean;
  /** Test seam: runs after a lock was judged stale, before it is taken over. */
  beforeTakeover?: () => void | Promise<void>;
}

function defaultContext(): LockContext {
  return {
    pid: process.pid,
    host: os.hostname(),
    instance: randomBytes(8).toString("hex"),
    now: Date.now,
    pidAlive: (pid) => {
      try {
        process.kill(pid, 0); // signal 0 only checks that the process exists
        return true;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === "EPERM"; // exists, someone else's
      }
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

interface Reading {
  raw: string;
  ino: number;
  mtimeMs: number;
  record: LockRecord | null;
}

function parseRecord(raw: string): LockRecord | null {
  try {
    const value = JSON.parse(raw) as Partial<LockRecord>;
    if (
      typeof value.pid === "number" &&
      typeof value.host === "string" &&
      typeof value.startedAt === "string" &&
      typeof value.heartbeatAt === "string" &&
      typeof value.instance === "string"
    ) {
      return value as LockRecord;
    }
  } catch {
    // Half-written or foreign content.
  }
  return null;
}

function read(file: string): Reading | null {
  try {
    const raw = readFileSync(file, "utf8");
    const stat = statSync(file);
    return { raw, ino: stat.ino, mtimeMs: stat.mtimeMs, record: parseRecord(raw) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function errno(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** Creates the lock file only if there is none (O_EXCL). False when one exists. */
function createExclusive(file: string, record: LockRecord): boolean {
  let fd: number;
  try {
    fd = openSync(file, "wx");
  } catch (error) {
    if (errno(error) === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, JSON.stringify(record));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Takes a lock judged stale. The file is renamed to a name of our own first (rename is atomic, so
 * of two starters only one moves any given file); if what we moved is not the file we judged —
 * another starter took the folder over in between — it is put back and we start again.
 */
function takeOver(file: string, judged: Reading, instance: string): void {
  const moved = `${file}.${instance}.stale`;
  try {
    renameSync(file, moved);
  } catch (error) {
    if (errno(error) === "ENOENT") return; // someone else moved it; try again from the top
    throw error;
  }
  const got = read(moved);
  if (got && (got.ino !== judged.ino || got.raw !== judged.raw)) {
    try {
      linkSync(moved, file); // back where it was, unless a third starter is already there
    } catch (error) {
      if (errno(error) !== "EEXIST") throw error;
    }
  }
  try {
    unlinkSync(moved);
  } catch {
    // Already gone.
  }
}

/** The lock file's holder judged from readings over time: live, or stale. */
async function verdictOver(file: string, first: Reading, ctx: LockContext): Promise<LockVerdict> {
  let reading: Reading | null = first;
  const since = ctx.now();
  for (;;) {
    if (reading === null) return "stale"; // gone: free to create
    if (reading.raw !== first.raw || reading.ino !== first.ino) return "live"; // it moved
    const verdict: LockVerdict = reading.record
      ? judgeLock(reading.record, ctx)
      : ctx.now() - reading.mtimeMs > STALE_MS // unreadable: stale once old, else being written
        ? "stale"
        : "watch";
    if (verdict !== "watch") return verdict;
    if (ctx.now() - since > STALE_MS) return "stale"; // no heartbeat for a whole stale window
    await ctx.sleep(WATCH_POLL_MS);
    reading = read(file);
  }
}

/**
 * Takes the folder's lock, or throws FolderLockedError. Waits at most about STALE_MS (only when
 * the holder's pid cannot be checked); a live holder on this host is refused at once.
 */
export async function acquireFolderLock(
  folder: string,
  options: AcquireOptions = {},
): Promise<FolderLock> {
  const ctx: LockContext = { ...defaultContext(), ...options.context };
  const dir = path.resolve(folder);
  const file = path.join(dir, LOCK_FILE);
  const startedAt = new Date(ctx.now()).toISOString();
  const record: LockRecord = {
    pid: ctx.pid,
    host: ctx.host,
    startedAt,
    heartbeatAt: startedAt,
    instance: ctx.instance,
  };
  let lastHolder: LockRecord | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (createExclusive(file, record)) return hold(dir, file, record, ctx, options);
    const reading = read(file);
    if (reading === null) continue; // released meanwhile
    lastHolder = reading.record;
    const verdict = await verdictOver(file, reading, ctx);
    if (verdict === "live") {
      throw new FolderLockedError(dir, read(file)?.record ?? lastHolder);
    }
    await options.beforeTakeover?.();
    takeOver(file, reading, ctx.instance);
  }
  throw new FolderLockedError(dir, read(file)?.record ?? lastHolder);
}

function hold(
  dir: string,
  file: string,
  record: LockRecord,
  ctx: LockContext,
  options: AcquireOptions,
): FolderLock {
  let released = false;
  let timer: NodeJS.Timeout | undefined;
  const onLost =
    options.onLost ??
    ((holder: LockRecord | null) => {
      log.error(`${new FolderLockedError(dir, holder).message} Stopping this one.`);
      process.exit(1);
    });

  const ours = () => read(file)?.record?.instance === record.instance;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(timer);
    for (const [signal, handler] of signalHandlers) process.off(signal, handler);
    process.off("exit", release);
    try {
      if (ours()) unlinkSync(file);
    } catch {
      // Nothing left to clean up.
    }
  };

  // A fresh heartbeat replaces the file atomically (rename), so a reader never sees it half
  // written; it first checks the lock is still ours, and stops the process if it is not.
  const beat = () => {
    if (released) return;
    const fresh: LockRecord = { ...record, heartbeatAt: new Date(ctx.now()).toISOString() };
    const current = read(file);
    if (current === null && createExclusive(file, fresh)) return; // removed under us: restore
    const holder = current ?? read(file);
    if (holder?.record?.instance !== record.instance) {
      released = true;
      clearInterval(timer);
      onLost(holder?.record ?? null);
      return;
    }
    const temp = `${file}.${record.instance}.tmp`;
    writeFileSync(temp, JSON.stringify(fresh));
    renameSync(temp, file);
  };

  // On SIGINT/SIGTERM the lock goes first; if nothing else handles the signal (a script), the
  // default action — ending the process — is restored and the signal raised again.
  const signalHandlers: [NodeJS.Signals, () => void][] = (["SIGINT", "SIGTERM"] as const).map(
    (signal) => [
      signal,
      () => {
        const alone = process.listenerCount(signal) === 1;
        release();
        if (alone) process.kill(process.pid, signal);
      },
    ],
  );
  if (!options.passive) {
    timer = setInterval(beat, HEARTBEAT_MS);
    timer.unref();
    process.on("exit", release);
    for (const [signal, handler] of signalHandlers) process.on(signal, handler);
  }
  return { folder: dir, record, release, beat };
}

const held = globalThis as unknown as { batonFolderLocks?: Map<string, FolderLock> };

/**
 * Takes the lock on a PGlite folder for the rest of this process (once per folder, however often
 * it is called), or prints who holds it and exits with code 1: a process that cannot have the
 * folder must not go on to open it. `hint` is appended to the message (e.g. what to do instead).
 */
export async function lockFolderOrExit(folder: string, hint = ""): Promise<FolderLock> {
  const dir = path.resolve(folder);
  held.batonFolderLocks ??= new Map();
  const existing = held.batonFolderLocks.get(dir);
  if (existing) return existing;
  mkdirSync(dir, { recursive: true });
  try {
    const lock = await acquireFolderLock(dir);
    held.batonFolderLocks.set(dir, lock);
    return lock;
  } catch (error) {
    if (!(error instanceof FolderLockedError)) throw error;
    log.error(hint ? `${error.message} ${hint}` : error.message);
    process.exit(1);
  }
}
