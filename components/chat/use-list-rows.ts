"use client";
// The chat view's rows as the list shows them: the older pages loaded (in seq order) and the
// newest messages with the queued ones and the followed replies under their questions, formatted
// into sessions and placeholders (lib/chat/paged-format.ts) with a pending reset's placeholder or
// draft editor; and which rows stream now, which the server answers, which the first HTML leaves out.
import { useMemo, useState } from "react";
import { type AnsweringState, answeringIds } from "@/lib/chat/answering";
import {
  type FollowedStream,
  type QueuedEntry,
  queuedMessages,
  stillAnswering,
  withLiveMessages,
} from "@/lib/chat/live-messages";
import type { SeqRange } from "@/lib/chat/message-gaps";
import { PagedFormatter, withoutIds } from "@/lib/chat/paged-format";
import { replyRequestIds } from "@/lib/chat/run-timeline";
import type { ChatMessage, DraftView, LiveStream, SessionSummary } from "@/lib/chat/types";
import { type PendingReset, withResetPlaceholder } from "./reset-placeholder";

export function useListRows({
  messages,
  queued,
  followed,
  olderPages: loadedPages,
  covered,
  sessions,
  answering,
  initialLive,
  liveReplies,
  awaitingDraft,
  pendingReset,
}: {
  /** useChat's messages. */
  messages: ChatMessage[];
  queued: QueuedEntry[];
  followed: readonly FollowedStream[];
  /** The older pages loaded while scrolling (`useThreadPages`). */
  olderPages: readonly (readonly ChatMessage[])[];
  covered: readonly SeqRange[];
  sessions: SessionSummary[];
  answering: AnsweringState;
  /** Replies the server was streaming as the page loaded (`ThreadView.live`). */
  initialLive: LiveStream[] | undefined;
  /** Every reply streaming now. */
  liveReplies: readonly ChatMessage[];
  awaitingDraft: DraftView | null;
  /** A reset no stream of this tab carries: a manual one, or one the server reports. */
  pendingReset: PendingReset | null;
}) {
  const chatIds = useMemo(() => new Set(messages.map((m) => m.id)), [messages]);
  const olderPages = useMemo(() => withoutIds(loadedPages, chatIds), [loadedPages, chatIds]);
  const newestMessages = useMemo(
    () => withLiveMessages([...messages, ...queuedMessages(queued)], followed),
    [messages, queued, followed],
  );
  // Pages in seq order (they arrive in the order they were asked for): `replyRequestIds` then
  // finds the messages in order and skips sorting every loaded message on each page.
  const listMessages = useMemo(
    () => [
      ...[...olderPages]
        .sort((a, b) => (a[0]?.metadata?.seq ?? 0) - (b[0]?.metadata?.seq ?? 0))
        .flat(),
      ...newestMessages,
    ],
    [olderPages, newestMessages],
  );
  const [formatter] = useState(() => new PagedFormatter());

  const requestIds = useMemo(() => replyRequestIds(listMessages), [listMessages]);
  const answeringRows = useMemo(
    // Queued messages are the thread's latest, never in an older page: the newest messages only,
    // not every loaded one on each page.
    () => stillAnswering(answeringIds(answering), followed, newestMessages),
    [answering, followed, newestMessages],
  );
  // Replies the server is writing as the page loads: the first HTML leaves them out.
  const liveRowIds = useMemo(() => {
    const requests = new Set(initialLive?.flatMap((s) => (s.requestId ? [s.requestId] : [])));
    const ids = new Set(
      initialLive?.flatMap((s) => (s.continuesMessageId ? [s.continuesMessageId] : [])),
    );
    for (const [reply, request] of requestIds) if (requests.has(request)) ids.add(reply);
    return ids;
  }, [initialLive, requestIds]);
  const streamingIds = useMemo(() => new Set(liveReplies.map((m) => m.id)), [liveReplies]);

  const formatted = useMemo(() => {
    const result = formatter.format({ pages: olderPages, rest: newestMessages, sessions, covered });
    const queuedIds = new Set(
      newestMessages.flatMap((m) => (m.metadata?.status === "queued" ? [m.id] : [])),
    );
    for (const entry of queued) queuedIds.add(entry.user.id);
    const reset = awaitingDraft
      ? {
          fromSession: awaitingDraft.fromSession,
          trigger: awaitingDraft.trigger,
          awaitingReview: true,
        }
      : pendingReset;
    return withResetPlaceholder(result, reset, queuedIds);
  }, [
    formatter,
    olderPages,
    newestMessages,
    sessions,
    covered,
    pendingReset,
    awaitingDraft,
    queued,
  ]);

  return { formatted, requestIds, answeringRows, liveRowIds, streamingIds };
}
