// The bound a reset's handoff must meet before it is committed (docs/context-engine.md): the brief
// takes at most the profile's share of the window, and session N+1 starts below the reset
// threshold. Trims by meaning when it does not fit; says why when even the kept items are too much.
import "server-only";
import { redactText } from "@/core/redact/engine";
import type { Profile } from "@/lib/agents/profiles";
import { estimateTokens } from "@/lib/ai/token-count";
import type { ContextResetPart, HandoffView } from "@/lib/chat/types";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { type DroppedItem, neverDroppedPart, trimArtifactToFit } from "@/lib/handoff/trim";
import { calibrated } from "./calibration";
import { priorRatio } from "./calibration-prior";
import { builtinToolTokens, continueLineTokens } from "./call-overhead";
import { carriedOverBlockOf, systemPromptFor } from "./session-context";

export interface BoundInput {
  profile: Profile;
  modelId: string;
  contextWindow: number;
  /** The session that ends (the brief is carried as its revision). */
  fromNumber: number;
  workspace: string;
  /** Tokens of the messages that move into the new session. */
  movedTokens: number;
  midRun: boolean;
  /** What the tool definitions of the next session's calls cost (the built-in tools' by default). */
  toolTokens?: number;
}

export type BoundResult =
  | { fits: true; artifact: HandoffArtifact; dropped: DroppedItem[]; startTokens: number }
  | { fits: false; reason: string; part?: Pick<ContextResetPart, "code" | "pins"> };

/** The artifact as it can be committed: unchanged when it fits, trimmed when it can be. */
export async function boundArtifact(
  artifact: HandoffArtifact,
  input: BoundInput,
): Promise<BoundResult> {
  const { profile, contextWindow, fromNumber, modelId } = input;
  // Session N+1 must start below the reset threshold, or it would reset again at once; and
  // the brief itself takes at most the profile's share of the window, whatever the chain length.
  const budget = profile.resetThreshold * contextWindow;
  const briefBudget = Math.floor(profile.briefShare * contextWindow);
  // Measured as the new session will be before its first call: scaled by the family's prior.
  const ratio = await priorRatio(modelId);
  const briefTokens = (a: HandoffArtifact) =>
    calibrated(estimateTokens(carriedOverBlockOf(briefViewOf(a, fromNumber)), modelId), ratio);
  // Every session's calls carry the tool definitions; a run's next call, the continue line.
  const extra =
    (input.toolTokens ?? (await builtinToolTokens(modelId))) +
    (input.midRun ? continueLineTokens(modelId) : 0);
  const sessionTokens = (a: HandoffArtifact) =>
    calibrated(
      estimateTokens(
        systemPromptFor(profile, briefViewOf(a, fromNumber), null, input.workspace),
        modelId,
      ) +
        input.movedTokens +
        extra,
      ratio,
    );
  const fits = (a: HandoffArtifact) => briefTokens(a) <= briefBudget && sessionTokens(a) < budget;
  if (fits(artifact)) {
    return { fits: true, artifact, dropped: [], startTokens: sessionTokens(artifact) };
  }
  const trimmed = trimArtifactToFit(artifact, fits);
  if (!trimmed) return { fits: false, ...unfitReason(artifact, briefTokens, briefBudget, profile) };
  return {
    fits: true,
    artifact: trimmed.artifact,
    dropped: trimmed.dropped,
    startTokens: sessionTokens(trimmed.artifact),
  };
}

/**
 * Why a handoff cannot be bounded: the never-dropped items alone (then the failed reset's card
 * lists the pins, the items the user can let go of), or the session as a whole.
 */
function unfitReason(
  artifact: HandoffArtifact,
  briefTokens: (artifact: HandoffArtifact) => number,
  briefBudget: number,
  profile: Profile,
): { reason: string; part?: Pick<ContextResetPart, "code" | "pins"> } {
  const kept = briefTokens(neverDroppedPart(artifact));
  if (kept > briefBudget) {
    return {
      reason:
        `The pinned items, decisions, open tasks and the last request alone take ${kept} tokens, ` +
        `more than the ${briefBudget} a brief may take (${Math.round(profile.briefShare * 100)}% ` +
        "of the window). Nothing was lost: the conversation continues in this session. Unpin " +
        "some items or raise the agent's brief share to let it reset.",
      // Masked like everything a stored part carries.
      part: {
        code: "brief_too_large",
        pins: artifact.must_preserve.map((p) => redactText(p).text),
      },
    };
  }
  return { reason: "The handoff does not fit in a new session even after trimming." };
}

/** The view a brief is carried as, for measuring it before it is stored. */
function briefViewOf(artifact: HandoffArtifact, fromNumber: number): HandoffView {
  return {
    key: "",
    revision: fromNumber,
    id: "",
    sessionNumber: fromNumber,
    artifact,
    markdown: renderHandoffMarkdown(artifact),
    createdAt: "",
    redactions: [],
  };
}
