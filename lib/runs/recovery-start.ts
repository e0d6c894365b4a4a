// Recovery at server start (docs/architecture.md, "Crash recovery"): instances that cannot be
// running are retired, their resets freed, drafts past their time ended and answered, and every
// thread that may hold an orphan recovered; then a sweep every few seconds does the same for an
// instance that falls silent. Apart from recovery.ts, which the draft's answer itself uses.
import "server-only";
import { log } from "@/core/log";
import type { DatabaseKind } from "@/db/client";
import { markSilentInstancesStopped } from "@/db/queries/instances";
import { releaseDeadResets } from "@/db/queries/resets";
import { listRecoveryCandidates } from "@/db/queries/run-recovery";
import { expireAllDueDrafts } from "@/lib/context/review-reset";
import { currentInstance, retireDeadInstances } from "@/lib/runtime/instance";
import { answerAfterDraftSoon } from "./after-draft";
import { recoverThread } from "./recovery";

const SWEEP_MS = 5_000;

const holder = globalThis as unknown as { batonSweep?: NodeJS.Timeout };

/**
 * At server start: retire instances that cannot be running, free their resets, and claim the
 * orphans of every thread that may hold one (answered in the background). Then a sweep every
 * few seconds frees what an instance that fell silent held.
 */
export async function startRecovery(kind: DatabaseKind): Promise<void> {
  await currentInstance();
  const retired = await retireDeadInstances(kind);
  const released = await releaseDeadResets();
  await expireAllDueDrafts(answerAfterDraftSoon);
  const candidates = await listRecoveryCandidates();
  if (retired.length || released.length || candidates.length) {
    log.info("recovery", undefined, {
      instancesRetired: retired.length,
      resetsReleased: released.length,
      threads: candidates.length,
    });
  }
  await Promise.all(candidates.map((c) => recoverThread(c.userId, c.threadId).claimed));
  holder.batonSweep ??= setInterval(() => {
    sweep().catch((error) => log.warn("recovery sweep failed", error));
  }, SWEEP_MS);
  holder.batonSweep.unref();
}

async function sweep(): Promise<void> {
  const silent = await markSilentInstancesStopped();
  if (silent.length === 0) return;
  await releaseDeadResets();
  for (const c of await listRecoveryCandidates()) recoverThread(c.userId, c.threadId);
}
