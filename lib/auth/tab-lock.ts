// One holder at a time across every tab of this browser for one origin: the Web Locks API where
// the page is a secure context (https, localhost, 127.0.0.1), else a lease in localStorage (a
// self-hosted Baton opened over plain http on a LAN address has no navigator.locks).

/** How long a localStorage lease stands without its holder finishing (a tab closed mid-way). */
const LEASE_MS = 15_000;
/** How long a new lease is left to settle before its writer reads it back. */
const SETTLE_MS = 50;
const POLL_MS = 100;

interface Lease {
  owner: string;
  until: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function readLease(key: string): Lease | null {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? "null") as Lease | null;
    return value && typeof value.owner === "string" && typeof value.until === "number"
      ? value
      : null;
  } catch {
    return null;
  }
}

/**
 * Takes a lease: waits while another tab's stands, writes its own, waits for the writes of tabs
 * racing it to land, and holds the lease if its own write is the one that stayed.
 */
async function takeLease(key: string): Promise<string> {
  const owner = crypto.randomUUID();
  for (;;) {
    const held = readLease(key);
    if (held && held.until > Date.now()) {
      await sleep(POLL_MS);
      continue;
    }
    localStorage.setItem(key, JSON.stringify({ owner, until: Date.now() + LEASE_MS }));
    await sleep(SETTLE_MS);
    if (readLease(key)?.owner === owner) return owner;
  }
}

async function withLease<T>(key: string, work: () => Promise<T>): Promise<T> {
  let owner: string;
  try {
    owner = await takeLease(key);
  } catch {
    // Storage refused (private mode, quota): nothing to coordinate through.
    return work();
  }
  try {
    return await work();
  } finally {
    if (readLease(key)?.owner === owner) localStorage.removeItem(key);
  }
}

/** Runs `work` while holding the browser-wide lock `name`; other tabs asking for it wait. */
export function withTabLock<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (typeof navigator !== "undefined" && navigator.locks) {
    return navigator.locks.request(name, work) as Promise<T>;
  }
  return withLease(`baton-lock:${name}`, work);
}
