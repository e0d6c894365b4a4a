// The answer to a message sent while a handoff draft awaits review: the message is stored queued
// and the stream ends at once with `data-queued` — the review may take hours, and the reply is
// streamed (and recorded for followers) by the run that answers it once the draft ends.
import "server-only";
import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { getAwaitingDraft } from "@/db/queries/reset-drafts";
import type { ChatMessage } from "@/lib/chat/types";
import { expireThreadDrafts } from "@/lib/context/review-reset";
import { answerAfterDraftSoon } from "./after-draft";

/** Whether a draft under review holds session `sessionNumber` (expired drafts end first). */
export async function draftHoldsSession(
  userId: string,
  threadId: string,
  sessionNumber: number,
): Promise<boolean> {
  await expireThreadDrafts(userId, threadId, answerAfterDraftSoon);
  const draft = await getAwaitingDraft({ userId, threadId });
  return draft?.fromSession === sessionNumber;
}

export function queuedReply(messageId: string): Response {
  const stream = createUIMessageStream<ChatMessage>({
    execute: ({ writer }) => {
      writer.write({ type: "start" });
      writer.write({ type: "data-queued", id: `queued-${messageId}`, data: { messageId } });
      writer.write({ type: "finish" });
    },
  });
  return createUIMessageStreamResponse({ stream });
}
