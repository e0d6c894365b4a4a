// A running reset watches its own lease while the model writes the handoff: once the reset is
// cancelled (from any server) or taken over, the model call is aborted, so the stream reports
// the cancel as soon as it is stored rather than when the model would have finished.
import "server-only";
import { getResetLiveness } from "@/db/queries/resets";

const WATCH_POLL_MS = 100;

export interface ResetWatch {
  /** Fires once the reset is no longer this instance's running reset. */
  signal: AbortSignal;
  stop: () => void;
}

export function watchReset({
  userId,
  threadId,
  fromSession,
  instanceId,
}: {
  userId: string;
  threadId: string;
  fromSession: number;
  instanceId: string;
}): ResetWatch {
  const controller = new AbortController();
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = async () => {
    if (stopped) return;
    try {
      const found = await getResetLiveness({ userId, threadId, fromSession });
      const ours = found?.reset.state === "running" && found.reset.instanceId === instanceId;
      if (!ours) {
        controller.abort(new Error(found?.reset.reason ?? "The reset is no longer running."));
        return;
      }
    } catch {
      // A failed read is not a cancel: look again next time.
    }
    if (!stopped) timer = setTimeout(check, WATCH_POLL_MS);
  };
  timer = setTimeout(check, WATCH_POLL_MS);
  return {
    signal: controller.signal,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
