// A handoff draft under review ends by its commit, its cancel or its expiry. The context engine
// ends it and reports it here; what waited for it (a parked run, queued messages) is the run
// engine's to answer, so the caller passes that answer in and the context engine never starts a run.
import type { DraftEnd } from "@/db/queries/reset-drafts";
import type { ResetDraft } from "@/db/schema";

export interface EndedDraft {
  /** The user whose request ended the draft (the thread's owner). */
  userId: string;
  threadId: string;
  /** The run the draft parked, if a run's reset stopped at it. */
  runId: string | null;
  end: DraftEnd;
}

/** Answers what waited for a draft that just ended; returns at once (the answer runs on its own). */
export type AfterDraft = (ended: EndedDraft) => void;

export function endedDraft(userId: string, draft: ResetDraft, end: DraftEnd): EndedDraft {
  return { userId, threadId: draft.threadId, runId: draft.context.runId, end };
}
