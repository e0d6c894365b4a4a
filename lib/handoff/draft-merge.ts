// A handoff drafted ahead, brought up to date at the reset without a model call: what the user
// said after the draft (its explicit markers and the last request) and the session's files are
// merged in mechanically (docs/context-engine.md, "Drafting ahead"). Pure.
import type { HandoffArtifact } from "./artifact";
import { applyExplicitMarkers, parseExplicitMarkers } from "./explicit-markers";
import { LAST_USER_REQUEST_PREFIX, mergeMechanicalFacts } from "./merge";

export interface DraftMergeInput {
  draft: HandoffArtifact;
  /** The handoff the ending session started from. */
  previous: HandoffArtifact | null;
  /** The user messages stored after the last message the draft's writer saw, oldest first. */
  laterUserTexts: readonly string[];
  filesTouched: readonly string[];
  /** The session's last user request (the reset's trigger, when a run resets for it). */
  lastUserRequest?: string;
}

/**
 * The draft with the later markers applied, the request it recorded replaced by the current one,
 * and the facts a writer's output always gets (`mergeMechanicalFacts`) merged again, so the result
 * carries what a handoff written now would be made to carry.
 */
export function mergeIntoDraft(input: DraftMergeInput): HandoffArtifact {
  const markers = input.laterUserTexts.flatMap(parseExplicitMarkers);
  const marked = applyExplicitMarkers(input.draft, markers);
  const request = input.lastUserRequest?.trim() ?? "";
  const current: HandoffArtifact = {
    ...marked,
    // The draft's "Last user request" is the one it saw; the reset records the newest.
    in_progress:
      request === ""
        ? marked.in_progress
        : marked.in_progress.filter((item) => !item.startsWith(LAST_USER_REQUEST_PREFIX)),
  };
  return mergeMechanicalFacts({
    artifact: current,
    previous: input.previous,
    filesTouched: input.filesTouched,
    lastUserRequest: input.lastUserRequest,
  });
}
