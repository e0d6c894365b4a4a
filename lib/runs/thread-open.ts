// Opening a thread (the chat page, the thread API, a shared view): what a dead server left in it
// is taken over, drafts past their time end and what waited for them is answered — both in the
// background — and then the thread's view is read.
import "server-only";
import { getThread } from "@/db/queries/threads";
import { readThreadView, type ThreadPageRequest, type ThreadView } from "@/lib/chat/thread-view";
import { expireThreadDrafts } from "@/lib/context/review-reset";
import { answerAfterDraftSoon } from "./after-draft";
import { recoverThreadSoon } from "./recovery";

export async function loadThreadView(request: ThreadPageRequest): Promise<ThreadView | null> {
  const { userId, threadId, beforeSeq, fromSeq, withContext = true } = request;
  const thread = await getThread({ userId, threadId });
  if (!thread) return null;
  // Opening a thread takes over what a dead server left in it (answered in the background).
  if (withContext && beforeSeq === undefined && fromSeq === undefined) {
    recoverThreadSoon(userId, threadId, thread);
  }
  await expireThreadDrafts(userId, threadId, answerAfterDraftSoon);
  return readThreadView({ ...request, thread });
}
