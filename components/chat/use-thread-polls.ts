"use client";
// The chat view's reasons to re-read the thread while its own stream is quiet: the server
// answering messages on its own (recovery, or messages queued behind a reset), a reset no stream
// of this tab carries, and questions queued behind a reviewed draft.
import { type AnsweringState, keepsPolling, progressKey } from "@/lib/chat/answering";
import type { ActiveResetView, ChatMessage, DraftView } from "@/lib/chat/types";
import { useAnsweringPoll } from "./use-answering-poll";

export function useThreadPolls({
  answering,
  messages,
  busy,
  queueing,
  resetStreaming,
  manualReset,
  pendingServerReset,
  awaitingDraft,
  threadExists,
  refresh,
}: {
  answering: AnsweringState;
  messages: ChatMessage[];
  busy: boolean;
  /** What is sent now is queued (a reset runs, or a draft waits). */
  queueing: boolean;
  /** A stream of this tab runs a reset. */
  resetStreaming: boolean;
  manualReset: { fromSession: number } | null;
  pendingServerReset: ActiveResetView | null;
  awaitingDraft: DraftView | null;
  threadExists: boolean;
  refresh: () => Promise<void>;
}) {
  // Never while this page's own stream runs.
  const serverAnswering = keepsPolling(answering);
  useAnsweringPoll({
    active: serverAnswering && !busy && !manualReset && !awaitingDraft && threadExists,
    progressKey: progressKey(answering),
    poll: refresh,
  });
  // A reset no stream of this tab carries: re-read the thread until it has ended.
  useAnsweringPoll({
    active: pendingServerReset !== null && !manualReset && !awaitingDraft,
    progressKey: pendingServerReset?.startedAt ?? "",
    poll: refresh,
  });
  // Questions queued behind a reviewed draft are answered by the server on its own once the draft
  // ends: re-read the thread (following the answers' streams) until none is left waiting.
  const waitingQueued =
    !queueing &&
    !resetStreaming &&
    messages.some((m) => m.role === "user" && m.metadata?.status === "queued");
  useAnsweringPoll({
    active: waitingQueued && !busy && threadExists,
    progressKey: "queued",
    poll: refresh,
  });
  return { serverAnswering };
}
