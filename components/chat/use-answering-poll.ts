"use client";
// Polls the thread while the server answers messages on its own: 1.5 s after the last progress,
// backing off to 5 s while nothing moves, paused while the tab is hidden (and polled at once
// when it shows again), and not at all while `active` is false — the caller keeps it false
// while its own stream runs and once nothing is left to answer.
import { useEffect, useRef } from "react";
import { pollDelay } from "@/lib/chat/answering";

export function useAnsweringPoll({
  active,
  progressKey,
  poll,
}: {
  active: boolean;
  /** Changes when a poll showed progress: the waits start again from the shortest. */
  progressKey: string;
  /** Reads the thread; the caller derives `active` and `progressKey` from what it read. */
  poll: () => Promise<void>;
}) {
  const pollRef = useRef(poll);
  pollRef.current = poll;

  // biome-ignore lint/correctness/useExhaustiveDependencies: progressKey restarts the backoff.
  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    let running = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;

    const run = async () => {
      timer = undefined;
      running = true;
      try {
        await pollRef.current();
      } finally {
        running = false;
      }
      if (!cancelled) schedule();
    };
    const schedule = () => {
      if (document.hidden || timer !== undefined) return;
      timer = setTimeout(() => void run(), pollDelay(attempt));
      attempt += 1;
    };
    const onVisibility = () => {
      if (document.hidden) {
        clearTimeout(timer);
        timer = undefined;
      } else if (timer === undefined && !running) {
        // Back from another tab: what was answered meanwhile is shown now, not after a wait.
        attempt = 0;
        void run();
      }
    };

    schedule();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [active, progressKey]);
}
