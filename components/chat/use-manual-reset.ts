"use client";
// "New session with handoff": the manual reset runs outside the chat stream (its own POST), with
// a placeholder divider meanwhile and a cancel that races it; the outcome is told in a toast.
import { useCallback, useRef, useState } from "react";
import { toast } from "sonner";
import { errorOf } from "./chat-errors";

export function useManualReset({
  threadId,
  currentSession,
  refresh,
  onSettled,
}: {
  threadId: string;
  currentSession: number;
  /** Re-reads the thread so the new divider replaces the placeholder in the same update. */
  refresh: () => Promise<void>;
  /** Called once the reset ended, however it ended. */
  onSettled: () => void;
}) {
  const [manualReset, setManualReset] = useState<{ fromSession: number } | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const cancelRequested = useRef(false);

  const startManualReset = useCallback(async () => {
    const fromSession = currentSession;
    cancelRequested.current = false;
    setManualReset({ fromSession });
    try {
      const response = await fetch(`/api/threads/${threadId}/reset`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ fromSession }),
      });
      if (response.ok) {
        const body = (await response.json()) as
          | { session: { number: number } }
          | { cancelled: true; fromSession: number };
        if ("cancelled" in body) {
          toast(`Context reset cancelled — continuing in session ${fromSession}`);
          return;
        }
        await refresh();
        toast(`Session ${body.session.number} started — context was reset`);
      } else if (cancelRequested.current) {
        toast(`Context reset cancelled — continuing in session ${fromSession}`);
      } else {
        toast.error(`Context reset failed: ${(await errorOf(response)).message}`);
      }
    } catch {
      toast.error("Could not reach the server to reset the context.");
    } finally {
      setManualReset(null);
      onSettled();
    }
  }, [currentSession, threadId, refresh, onSettled]);

  const cancelReset = useCallback(
    async (fromSession: number) => {
      setCancelling(true);
      cancelRequested.current = true;
      try {
        const response = await fetch(`/api/threads/${threadId}/reset/cancel`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ fromSession }),
        });
        if (response.status === 409) {
          cancelRequested.current = false;
          toast("The reset had already completed.");
        } else if (!response.ok) {
          cancelRequested.current = false;
          toast.error(`Could not cancel the reset: ${(await errorOf(response)).message}`);
        }
      } catch {
        toast.error("Could not reach the server to cancel the reset.");
      } finally {
        setCancelling(false);
      }
    },
    [threadId],
  );

  return { manualReset, cancelling, startManualReset, cancelReset };
}
