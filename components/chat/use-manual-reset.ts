"use client";
// "Reset context" from the header, and "Cancel reset" on a reset's placeholder. Where the thread's
// agent reviews resets (`manual` or `always`), the button asks for a draft and hands it to the
// editor instead of starting the new session at once. A cancel reads
// "Cancelling…" until the server's outcome shows — the reset's terminal event in a stream, or a
// re-read thread with no reset running — never just until the cancel request answered.
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { ApiError, post } from "@/lib/api/client";
import { draftViewSchema, type ReviewSetting } from "@/lib/api/thread-schemas";
import type { DraftView } from "@/lib/chat/types";

// A committed reset answers its session, a reviewed one its draft; one the user cancelled answers
// that outcome.
const resetAnswer = z.union([
  z.object({ session: z.object({ number: z.number() }) }),
  z.object({ draft: draftViewSchema }),
  z.object({ cancelled: z.literal(true), fromSession: z.number() }),
]);

export function useManualReset({
  threadId,
  currentSession,
  resetRunning,
  review,
  refresh,
  onDraft,
  onSettled,
}: {
  threadId: string;
  currentSession: number;
  /** When this thread's resets stop at a draft for the user to review. */
  review: ReviewSetting;
  /** The drafted handoff, for the editor. */
  onDraft: (draft: DraftView) => void;
  /** Whether any reset still shows as running (this tab's, a followed stream's, the server's). */
  resetRunning: boolean;
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
      const request = review === "never" ? { fromSession } : { fromSession, review: true };
      const body = await post(`/api/threads/${threadId}/reset`, request, resetAnswer);
      if ("draft" in body) {
        onDraft(body.draft);
        return;
      }
      await refresh();
      if ("session" in body) toast(`Session ${body.session.number} started — context was reset`);
      else toast(`Context reset cancelled — continuing in session ${fromSession}`);
    } catch (error) {
      if (cancelRequested.current && error instanceof ApiError && error.status > 0) {
        toast(`Context reset cancelled — continuing in session ${fromSession}`);
      } else if (error instanceof ApiError && error.status > 0) {
        toast.error(`Context reset failed: ${error.message}`);
      } else {
        toast.error("Could not reach the server to reset the context.");
      }
    } finally {
      setManualReset(null);
      onSettled();
    }
  }, [currentSession, threadId, review, refresh, onDraft, onSettled]);

  const cancelReset = useCallback(
    async (fromSession: number) => {
      setCancelling(true);
      cancelRequested.current = true;
      try {
        await post(`/api/threads/${threadId}/reset/cancel`, { fromSession }, z.unknown());
        // Accepted: the placeholder keeps saying "Cancelling…" until the outcome shows.
        refresh().catch(() => undefined);
      } catch (error) {
        cancelRequested.current = false;
        setCancelling(false);
        if (error instanceof ApiError && error.status === 409) {
          toast("The reset had already completed.");
        } else if (error instanceof ApiError && error.status > 0) {
          toast.error(`Could not cancel the reset: ${error.message}`);
        } else {
          toast.error("Could not reach the server to cancel the reset.");
        }
        void refresh();
      }
    },
    [threadId, refresh],
  );

  // The outcome arrived (or the reset was gone already): the button may read as before.
  useEffect(() => {
    if (cancelling && !resetRunning && manualReset === null) setCancelling(false);
  }, [cancelling, resetRunning, manualReset]);

  return { manualReset, cancelling, startManualReset, cancelReset };
}
