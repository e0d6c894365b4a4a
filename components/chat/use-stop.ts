"use client";
// Stop: one request to the server, which stops every reply of the thread that is generating (the
// streams then end by themselves). The replies generating now read "Stopped" at once; a reply
// still waiting on a reset is not stopped, so it does not.
import { useCallback, useEffect, useState } from "react";
import { toast } from "sonner";
import { hasAnswerStarted, runningReset } from "@/lib/chat/live-messages";
import type { ChatMessage } from "@/lib/chat/types";
import { stopThread, warmStopRoute } from "./chat-api";
import { readableError } from "./chat-errors";

export function useStop({
  threadId,
  liveReplies,
}: {
  threadId: string;
  /** Every reply streaming in the page now. */
  liveReplies: readonly ChatMessage[];
}) {
  useEffect(() => warmStopRoute(threadId), [threadId]);
  const [stoppedIds, setStoppedIds] = useState<ReadonlySet<string>>(new Set());
  const onStop = useCallback(() => {
    const generating = liveReplies.filter((m) => runningReset(m) === null && hasAnswerStarted(m));
    if (generating.length > 0) {
      setStoppedIds((ids) => new Set([...ids, ...generating.map((m) => m.id)]));
    }
    stopThread(threadId).catch((err: unknown) => toast.error(readableError(err)));
  }, [liveReplies, threadId]);
  return { stoppedIds, onStop };
}
