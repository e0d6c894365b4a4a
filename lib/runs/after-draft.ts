// What waited for a handoff draft under review goes on once the draft ends: the run it parked
// resumes and the messages queued behind it are answered — in session N+1 after a commit, in session N after a cancel or expiry —
// by the same recovery path that answers messages whose reset died, each as a recorded run.
import "server-only";
import { log } from "@/core/log";
import type { DraftEnd } from "@/db/queries/reset-drafts";
import type { AfterDraft } from "@/lib/context/draft-end";
import { recoverThread } from "./recovery";
import { recoveryOf } from "./recovery-registry";

async function answerAfterDraft({
  userId,
  threadId,
  end,
}: {
  userId: string;
  threadId: string;
  runId: string | null;
  end: DraftEnd;
}): Promise<void> {
  // A recovery already running would be joined with its own cut-off: let it end first.
  await recoveryOf(threadId);
  await recoverThread(userId, threadId, { acceptedBefore: new Date(), afterDraft: end }).done;
}

/** Answers what waited for the draft, in the background (the request that ended it returns). */
export const answerAfterDraftSoon: AfterDraft = (ended) => {
  answerAfterDraft(ended).catch((error) =>
    log.error("answering after a draft failed", error, { threadId: ended.threadId }),
  );
};
