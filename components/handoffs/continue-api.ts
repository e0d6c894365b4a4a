// The browser's call that starts a thread from a handoff. The thread id is chosen here, so a
// retried request (double click, dropped answer) finds the thread instead of making a second.
import { z } from "zod";
import { post } from "@/lib/api/client";

export async function startThreadFromHandoff({
  key,
  id,
  threadId,
}: {
  key: string;
  id: string;
  threadId: string;
}): Promise<string> {
  const answer = await post(
    `/api/handoffs/${encodeURIComponent(key)}/continue`,
    { id, threadId },
    z.object({ threadId: z.string() }),
    { fallback: "Couldn't continue from that handoff." },
  );
  return answer.threadId;
}
