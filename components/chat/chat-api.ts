// The chat view's own calls beside the chat stream: stopping the thread's replies.
import { z } from "zod";
import { post } from "@/lib/api/client";

const stopAnswer = z.object({ stopping: z.number() });

/**
 * Stops every reply of the thread that is generating (not a reset, which has Cancel, nor the
 * messages queued behind one). Each stopped stream then ends by itself.
 */
export async function stopThread(threadId: string): Promise<number> {
  const answer = await post(`/api/chat/${encodeURIComponent(threadId)}/stop`, {}, stopAnswer, {
    fallback: "Couldn't stop the reply.",
  });
  return answer.stopping;
}

let stopRouteWarmed = false;

/**
 * Asks for the stop route once per page load, answering nothing, so that a development server
 * compiles it now rather than when the user presses Stop. Sent once the page is idle, so it never
 * competes with what the page loads first. Failures do not matter.
 */
export function warmStopRoute(threadId: string): void {
  if (stopRouteWarmed) return;
  stopRouteWarmed = true;
  const send = () => {
    fetch(`/api/chat/${encodeURIComponent(threadId)}/stop`, { method: "HEAD" }).catch(() => {});
  };
  if (typeof window.requestIdleCallback === "function") {
    window.requestIdleCallback(send, { timeout: 3_000 });
  } else {
    window.setTimeout(send, 1_000);
  }
}
