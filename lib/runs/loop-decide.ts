// The one place a run asks its context "reset, compact or go on?", and what the loop does after
// a leg: end the run, stop for thrashing, or reset and go on in a new session.
import type { Profile } from "@/lib/agents/profiles";
import type { ContextPart } from "@/lib/chat/types";
import { type ContextAction, decideContextAction } from "@/lib/context/policy";
import type { RunState } from "./loop-state";
import { THRASH_STEPS } from "./run-request";
import type { LegResult } from "./run-steps";

/** `compacted`: the session was already compacted for this request, so only a reset is left. */
export function contextAction(
  profile: Profile,
  reading: ContextPart,
  compacted: boolean,
): ContextAction {
  return decideContextAction({
    utilization: reading.utilization,
    strategy: reading.strategy,
    resetThreshold: profile.resetThreshold,
    compactThreshold: profile.compactThreshold,
    compactedThisTurn: compacted,
    resetThisTurn: false,
  });
}

/** Between steps only a reset can help: compaction would summarize the run in flight. */
export function wantsReset(s: RunState, reading: ContextPart): boolean {
  if (s.inSession.resetFailed) return false;
  return contextAction(s.input.profile, reading, true) === "reset";
}

export type AfterLeg = "end" | "thrash" | "reset";

/** What follows a leg that did not transfer the work. */
export function afterLeg(s: RunState, leg: LegResult): AfterLeg {
  const full = leg.end === "threshold" || (leg.end === "approval" && wantsReset(s, leg.reading));
  if (!full) return "end";
  // A session this run's reset began that filled up again at once: another reset would not help.
  if (s.inSession.enteredByReset && s.inSession.steps <= THRASH_STEPS) return "thrash";
  return "reset";
}
