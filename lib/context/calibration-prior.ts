// The in-process prior per model family: the ratio a session is measured with before its own
// first reported call (a new thread, the session after a reset). Seeded once per family from the
// ratios stored on recent sessions, then moved by every call of the family this process makes.
import "server-only";
import { log } from "@/core/log";
import { recentTokenRatios } from "@/db/queries/sessions";
import { type CallSample, FamilyPriors, modelFamily } from "./calibration";

const priors = new FamilyPriors();
const seeded = new Map<string, Promise<void>>();

function seedFamily(family: string): Promise<void> {
  let pending = seeded.get(family);
  if (!pending) {
    pending = recentTokenRatios({ modelPrefix: family })
      .then((rows) =>
        priors.seed(
          family,
          rows.filter((r) => modelFamily(r.model) === family).map((r) => r.tokenRatio),
        ),
      )
      .catch((error) => {
        // Without a seed the plain estimate is used; the next measurement tries again.
        seeded.delete(family);
        log.warn("token ratio prior could not be read", error);
      });
    seeded.set(family, pending);
  }
  return pending;
}

/** The family's prior ratio for `modelId`, or null when neither stored sessions nor calls taught one. */
export async function priorRatio(modelId: string): Promise<number | null> {
  const family = modelFamily(modelId);
  if (!priors.has(family)) await seedFamily(family);
  return priors.get(family) ?? null;
}

/** One reported call of `modelId` moves its family's prior. */
export function observeFamilyCall(modelId: string, sample: CallSample): void {
  priors.observe(modelFamily(modelId), sample);
}
