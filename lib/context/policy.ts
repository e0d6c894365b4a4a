// Context policy (docs/context-engine.md): how full a session is and whether to compact or reset
// before the next model call. Pure and synchronous; the turn runner measures, asks, acts, then
// asks again.
import { z } from "zod";
import { DEFAULT_COMPACT_THRESHOLD, DEFAULT_RESET_THRESHOLD } from "@/core/context-defaults";
import type { ContextStrategy } from "@/lib/chat/types";

export { DEFAULT_COMPACT_THRESHOLD, DEFAULT_RESET_THRESHOLD };
/** The largest share of the context window a carried-over brief may take. */
export const DEFAULT_BRIEF_SHARE = 0.2;
/** Past this utilization the next handoff is drafted ahead in the background. */
export const DEFAULT_DRAFT_THRESHOLD = 0.65;
/** Whether a reset's handoff waits for the user's review: the reset button's resets by default. */
export const REVIEW_RESETS = ["never", "manual", "always"] as const;
export const DEFAULT_REVIEW_RESETS = "manual" satisfies (typeof REVIEW_RESETS)[number];

export type ContextAction = "none" | "compact" | "reset";

interface ProfileThresholds {
  resetThreshold: number;
  compactThreshold: number;
}

/** The one rule both the schema and `decideContextAction` enforce: 0 < compact ≤ reset ≤ 1. */
function thresholdsProblem({ resetThreshold, compactThreshold }: ProfileThresholds): string | null {
  if (!(resetThreshold > 0 && resetThreshold <= 1)) {
    return `resetThreshold must be in (0, 1], got ${resetThreshold}`;
  }
  if (!(compactThreshold > 0 && compactThreshold <= 1)) {
    return `compactThreshold must be in (0, 1], got ${compactThreshold}`;
  }
  if (compactThreshold > resetThreshold) {
    return `compactThreshold (${compactThreshold}) must not exceed resetThreshold (${resetThreshold})`;
  }
  return null;
}

const thresholdSchema = z.number().gt(0).lte(1);

/**
 * Per-profile thresholds. Setting only `resetThreshold` below 0.5 fails on purpose: compaction
 * would then never run before a reset, so the profile must say what it wants.
 */
export const profileThresholdsSchema = z
  .object({
    resetThreshold: thresholdSchema.default(DEFAULT_RESET_THRESHOLD),
    compactThreshold: thresholdSchema.default(DEFAULT_COMPACT_THRESHOLD),
  })
  .refine((t) => t.compactThreshold <= t.resetThreshold, {
    message: "compactThreshold must not exceed resetThreshold",
    path: ["compactThreshold"],
  });

/**
 * Context tokens ÷ context window, in [0, ∞): above 1 means the prompt no longer fits.
 * A window that is not a positive number cannot be measured against, so it reads as 0 (no
 * action) rather than Infinity (a reset every turn); the model registry always supplies one.
 */
export function computeUtilization({
  contextTokens,
  contextWindow,
}: {
  contextTokens: number;
  contextWindow: number;
}): number {
  if (!(contextWindow > 0) || !Number.isFinite(contextWindow)) return 0;
  if (!(contextTokens > 0)) return 0;
  return contextTokens / contextWindow;
}

/**
 * Tokens the session's next prompt will hold: the provider-reported input tokens of this
 * session's last model call plus the local estimate of everything added since (new messages,
 * tool results). With no call yet in the session (`null`), the estimate must cover the whole
 * prompt: system prompt, handoff brief and messages.
 *
 * Never pass the usage of the handoff or compaction-summary call here: that call reads the whole
 * old session, so its input tokens would put the new session over the threshold at once and
 * trigger another reset.
 */
export function sessionContextTokens({
  lastReportedInputTokens,
  estimatedSinceLastCall,
}: {
  lastReportedInputTokens: number | null;
  estimatedSinceLastCall: number;
}): number {
  const reported =
    lastReportedInputTokens !== null && lastReportedInputTokens > 0 ? lastReportedInputTokens : 0;
  const estimated = estimatedSinceLastCall > 0 ? estimatedSinceLastCall : 0;
  return reported + estimated;
}

export interface ContextDecisionInput {
  utilization: number;
  strategy: ContextStrategy;
  resetThreshold?: number;
  compactThreshold?: number;
  /** A compaction already ran this turn; the caller re-measured afterwards. */
  compactedThisTurn: boolean;
  /** A reset already ran this turn (at most one reset per turn). */
  resetThisTurn: boolean;
}

/**
 * What to do before the next model call. Thresholds are inclusive (0.8 resets, 0.7999 does not).
 *
 * - `reset`: reset at the reset threshold; never compacts.
 * - `compact`: compact at the compact threshold first, once per turn (a compaction that did not
 *   help is not retried, which would loop). After it, the caller re-measures and asks again:
 *   still at the reset threshold means compaction was not enough, so reset.
 * - `off`: neither; the provider's own limit is the user's problem by choice.
 *
 * `auto` is resolved to one of these by the model registry before it gets here.
 * @throws RangeError when thresholds break 0 < compact ≤ reset ≤ 1 or utilization is not a
 *   non-negative number — a misconfigured profile must fail loudly, not silently never reset.
 */
export function decideContextAction({
  utilization,
  strategy,
  resetThreshold = DEFAULT_RESET_THRESHOLD,
  compactThreshold = DEFAULT_COMPACT_THRESHOLD,
  compactedThisTurn,
  resetThisTurn,
}: ContextDecisionInput): ContextAction {
  const problem = thresholdsProblem({ resetThreshold, compactThreshold });
  if (problem) throw new RangeError(problem);
  if (!(utilization >= 0)) throw new RangeError(`utilization must be ≥ 0, got ${utilization}`);

  const canReset = !resetThisTurn && utilization >= resetThreshold;
  switch (strategy) {
    case "off":
      return "none";
    case "reset":
      return canReset ? "reset" : "none";
    case "compact":
      if (!compactedThisTurn) return utilization >= compactThreshold ? "compact" : "none";
      return canReset ? "reset" : "none";
  }
}
