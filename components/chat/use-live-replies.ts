"use client";
// The replies streaming now (this tab's own, its queued messages' and the followed ones), the
// reset one of them runs, and the reset the server reports that none of them carries.
import { useMemo } from "react";
import {
  carriesResetOf,
  type FollowedStream,
  type QueuedEntry,
  runningResetIn,
} from "@/lib/chat/live-messages";
import type { ActiveResetView, ChatMessage, SessionSummary } from "@/lib/chat/types";

export function useLiveReplies({
  chatBusy,
  lastMessage,
  queued,
  followed,
  serverReset,
  sessions,
}: {
  /** useChat's own request is running. */
  chatBusy: boolean;
  /** useChat's last message. */
  lastMessage: ChatMessage | undefined;
  queued: QueuedEntry[];
  followed: FollowedStream[];
  /** The reset the server reports running (a reloaded page, another tab's manual reset). */
  serverReset: ActiveResetView | null;
  sessions: SessionSummary[];
}) {
  const liveReplies = useMemo(
    () => [
      ...(chatBusy && lastMessage?.role === "assistant" ? [lastMessage] : []),
      ...queued.flatMap((entry) => (entry.answer && !entry.done ? [entry.answer] : [])),
      ...followed.flatMap((entry) => (entry.message && !entry.done ? [entry.message] : [])),
    ],
    [chatBusy, lastMessage, queued, followed],
  );
  const liveReset = runningResetIn(liveReplies);
  // The server's reset, unless a reply this tab holds carries it: its part is then the truth.
  const pendingServerReset =
    serverReset &&
    !carriesResetOf(
      [lastMessage, ...queued.map((e) => e.answer), ...followed.map((e) => e.message)],
      sessions.find((s) => s.number === serverReset.fromSession)?.id,
    )
      ? serverReset
      : null;
  return { liveReplies, liveReset, pendingServerReset };
}
