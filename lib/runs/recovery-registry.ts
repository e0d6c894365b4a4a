// This process's recoveries in flight, by thread: a new request on a thread that is being
// recovered waits (inside its stream) until the orphans before it are answered, so answers stay
// in the order their questions were asked.
const holder = globalThis as unknown as { batonRecoveries?: Map<string, Promise<void>> };

function recoveries(): Map<string, Promise<void>> {
  holder.batonRecoveries ??= new Map();
  return holder.batonRecoveries;
}

/** Resolves when the thread's recovery in this process (if any) has ended. */
export async function recoveryOf(threadId: string): Promise<void> {
  await recoveries().get(threadId);
}

/** Runs `recover` once per thread at a time; a call while one runs joins it. */
export function trackRecovery(threadId: string, recover: () => Promise<void>): Promise<void> {
  const map = recoveries();
  const running = map.get(threadId);
  if (running) return running;
  const done = recover().finally(() => map.delete(threadId));
  map.set(threadId, done);
  return done;
}

/**
 * Resolves once every recovery running in this process has ended (for a clean shutdown, and for
 * tests that close their database afterwards).
 */
export async function settleRecoveries(): Promise<void> {
  for (let map = recoveries(); map.size > 0; map = recoveries()) {
    await Promise.allSettled([...map.values()]);
  }
}
