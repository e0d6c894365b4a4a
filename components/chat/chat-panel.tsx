"use client";
// The chat view: the thread's list and composer over useChat (use-baton-chat.ts), with stop,
// retry, regenerate, continue and edit-last-message (use-composer-input.ts); replies the server
// streams that this tab did not start, followed live (use-live-streams.ts, use-live-replies.ts)
// and placed under their questions (use-list-rows.ts); sessions with live context resets
// (queueing what is sent meanwhile, use-queued-messages.ts), manual resets and cancel
// (use-manual-reset.ts), a drafted handoff waiting for the user's review (use-draft-review.ts),
// the context meter, long-thread paging and sharing; tool calls with their approvals, the plan
// checklist and the Files panel; and messages the server answers on its own, followed by polling
// (use-thread-polls.ts).
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { DraftReviewProvider } from "@/components/session/draft-editor";
import { ThreadPinsProvider } from "@/components/session/pin-context";
import { FilesPanel } from "@/components/workspace/files-panel";
import { PlanChecklist } from "@/components/workspace/plan-checklist";
import type { AgentOption } from "@/lib/agents/profile-view";
import type { ReviewSetting } from "@/lib/api/thread-schemas";
import { answeringFrom, nextAnswering } from "@/lib/chat/answering";
import { pendingApprovalIds } from "@/lib/chat/tool-view";
import type {
  ActiveResetView,
  ChatMessage,
  ContextPart,
  DraftView,
  LiveStream,
  SessionSummary,
  ThreadPinView,
} from "@/lib/chat/types";
import { readableError } from "./chat-errors";
import { ChatHeader } from "./chat-header";
import { ApprovalNotice, EmptyChat, FailedRequestAlert } from "./chat-notices";
import { Composer } from "./composer";
import { ContextMeter } from "./context-meter";
import { actionsFor } from "./message-actions";
import { MessageList } from "./message-list";
import type { ModelOption } from "./model-select";
import { currentSessionNumber } from "./session-live";
import { useBatonChat } from "./use-baton-chat";
import { useComposerInput } from "./use-composer-input";
import { useDraftReview } from "./use-draft-review";
import { useEscapeToStop } from "./use-escape-to-stop";
import { useListRows } from "./use-list-rows";
import { useLiveReplies } from "./use-live-replies";
import { useLiveStreams } from "./use-live-streams";
import { useLiveWorkspace } from "./use-live-workspace";
import { useManualReset } from "./use-manual-reset";
import { useQueuedMessages } from "./use-queued-messages";
import { useStop } from "./use-stop";
import { useStreamData } from "./use-stream-data";
import { useThreadAgent } from "./use-thread-agent";
import {
  coverageOf,
  type FetchPage,
  fetchMessagePage,
  type MessagePage,
  useThreadPages,
} from "./use-thread-pages";
import { useThreadPolls } from "./use-thread-polls";
import { useThreadRefresh } from "./use-thread-refresh";
import { useThreadStarted } from "./use-thread-started";

export interface ChatPanelProps {
  threadId: string;
  initialMessages: ChatMessage[];
  /** The thread's sessions with their handoffs (empty for a new thread). */
  initialSessions: SessionSummary[];
  /** The stored utilization, so the meter shows it before the first reply. */
  initialContext: ContextPart | null;
  /** `beforeSeq` for the page before `initialMessages`, or null when they start the thread. */
  olderCursor: number | null;
  /** User messages the server is still answering on its own (`ThreadView.answering`). */
  initialAnswering?: string[];
  /** Replies the server is streaming now (`ThreadView.live`), followed from their start. */
  initialLive?: LiveStream[];
  /** The reset running now (`ThreadView.reset`). */
  initialReset?: ActiveResetView | null;
  /** The drafted handoff waiting for review (`ThreadView.draft`). */
  initialDraft?: DraftView | null;
  /** When the thread's resets stop at a draft (`ThreadView.review`). */
  initialReview?: ReviewSetting;
  /** The thread's current pins (`ThreadView.pins`), which the handoff cards mark and change. */
  initialPins?: ThreadPinView[];
  models: ModelOption[];
  initialModel: string;
  /** The agents the thread may run with, and the slug of the one it runs with. */
  agents: AgentOption[];
  initialAgent: string;
  maxMessageChars: number;
  isNew: boolean;
}

export function ChatPanel({
  threadId,
  initialMessages,
  initialSessions,
  initialContext,
  olderCursor,
  initialAnswering,
  initialLive,
  initialReset,
  initialDraft,
  initialReview,
  initialPins,
  models,
  initialModel,
  agents,
  initialAgent,
  maxMessageChars,
  isNew,
}: ChatPanelProps) {
  const [model, setModel] = useState(initialModel);
  const { agent, setAgent, changeAgent } = useThreadAgent({ threadId, initialAgent });
  const [sessions, setSessions] = useState(initialSessions);
  const [context, setContext] = useState(initialContext);
  const [pins, setPins] = useState<ThreadPinView[]>(initialPins ?? []);
  const [answering, setAnswering] = useState(() => answeringFrom(initialAnswering));
  // The reset the server reports running (a reloaded page, another tab's manual reset).
  const [serverReset, setServerReset] = useState<ActiveResetView | null>(initialReset ?? null);
  const [review, setReview] = useState<ReviewSetting>(initialReview ?? "manual");
  // Set when a turn, a queued answer or a reset ended: the stored thread is then re-read once
  // things are quiet, so the list matches a reload (seqs, sessions, counts).
  const [stale, setStale] = useState(false);
  const markStale = useCallback(() => setStale(true), []);
  const [filesOpen, setFilesOpen] = useState(false);
  const filesPanelId = useId();

  // The review hook needs the thread's refresh, which needs the chat: a stream's draft reaches it
  // through a ref set below.
  const showDraftRef = useRef<(draft: DraftView) => void>(() => undefined);
  const onDraft = useCallback((draft: DraftView) => showDraftRef.current(draft), []);
  const onData = useStreamData({ setContext, setAgent, onDraft, sessions });

  const {
    messages,
    setMessages,
    sendMessage,
    status,
    regenerate,
    error,
    clearError,
    transport,
    continueReply,
    answerApproval,
  } = useBatonChat({
    threadId,
    initialMessages,
    model,
    agent: isNew ? agent : undefined,
    onData,
    onSettled: markStale,
  });

  const { queued, setQueued, queueMessage } = useQueuedMessages({
    threadId,
    transport,
    onContext: setContext,
    onSettled: markStale,
  });
  const live = useLiveStreams({ threadId, onData, onSettled: markStale });
  const { follow, clearEnded } = live;

  const fetchPage = useCallback<FetchPage>(
    (query) => fetchMessagePage(`/api/threads/${threadId}`, query),
    [threadId],
  );
  const initialPage = useMemo<MessagePage>(
    () => ({
      sessions: initialSessions,
      messages: initialMessages,
      olderCursor,
      newerCursor: null,
    }),
    [initialSessions, initialMessages, olderCursor],
  );
  const pages = useThreadPages({ initial: initialPage, fetchPage, onSessions: setSessions });
  const { addCoverage } = pages;

  const queuedInFlight = queued.some((entry) => !entry.done);
  const chatBusy = status === "submitted" || status === "streaming";
  const busy = chatBusy || queuedInFlight || live.following;
  const lastMessage = messages.at(-1);
  const lastUser = messages.findLast((m) => m.role === "user");
  const threadExists = !isNew || messages.length > 0;
  // A new thread is stored with its first message, before the reply starts streaming: reading
  // its plan any earlier is a 404 (an error in the browser's console on every new chat).
  const threadStored = !isNew || messages.some((m) => m.role === "assistant");

  const currentSession = useMemo(
    () => currentSessionNumber(sessions, messages, queued),
    [sessions, messages, queued],
  );

  useThreadStarted({ threadId, isNew, messages });

  const refresh = useThreadRefresh({
    fetchPage,
    now: { messages, queued, status, busy, followed: live.followed },
    initialLive,
    follow,
    onPage: (page) => {
      setSessions(page.sessions);
      // A run may have transferred the thread to another agent.
      if (page.thread?.profile) setAgent(page.thread.profile);
      if (page.context) setContext(page.context);
      // A reset may have pinned what its handoff added; the agent may have pinned something.
      if (page.pins) setPins(page.pins);
      setServerReset(page.reset ?? null);
      if (page.review) setReview(page.review);
      draftReview.showDraft(page.draft ?? null);
      addCoverage(coverageOf({}, page));
    },
    onQuiet: (page, merged) => {
      setAnswering((previous) => nextAnswering(previous, page));
      setMessages(merged);
      setQueued([]);
      clearEnded();
    },
    onBusy: markStale,
    onFailed: (kept) => {
      setMessages(kept);
      setQueued([]);
    },
  });

  const { liveReplies, liveReset, pendingServerReset } = useLiveReplies({
    chatBusy,
    lastMessage,
    queued,
    followed: live.followed,
    serverReset,
    sessions,
  });

  const draftReview = useDraftReview({
    threadId,
    initialDraft: initialDraft ?? null,
    refresh,
    onSettled: markStale,
  });
  showDraftRef.current = draftReview.showDraft;
  const awaitingDraft = draftReview.draft;
  const { manualReset, cancelling, startManualReset, cancelReset } = useManualReset({
    threadId,
    currentSession,
    resetRunning: liveReset !== null || pendingServerReset !== null,
    review,
    refresh,
    onDraft: draftReview.showDraft,
    onSettled: markStale,
  });
  // A reset running, or one whose draft waits for review: what is sent now is queued.
  const queueing =
    liveReset?.event === "input_blocked" ||
    manualReset !== null ||
    pendingServerReset !== null ||
    awaitingDraft !== null;

  useEffect(() => {
    if (!stale || busy || manualReset || !threadExists) return;
    setStale(false);
    void refresh();
  }, [stale, busy, manualReset, threadExists, refresh]);

  const { serverAnswering } = useThreadPolls({
    answering,
    messages,
    busy,
    queueing,
    resetStreaming: liveReset !== null,
    manualReset,
    pendingServerReset,
    awaitingDraft,
    threadExists,
    refresh,
  });
  const { input, setInput, editingId, submit, editLast, cancelEdit } = useComposerInput({
    lastUser,
    queueing,
    busy,
    chatBusy,
    sendMessage,
    queueMessage,
    clearError,
  });

  const { stoppedIds, onStop } = useStop({ threadId, liveReplies });
  useEscapeToStop(busy && !queueing && editingId === null, onStop);

  const { formatted, requestIds, answeringRows, liveRowIds, streamingIds } = useListRows({
    messages,
    queued,
    followed: live.followed,
    olderPages: pages.pages,
    covered: pages.covered,
    sessions,
    answering,
    initialLive,
    liveReplies,
    awaitingDraft,
    pendingReset: manualReset ?? pendingServerReset,
  });

  const { workspaceBase, workspaceVersion, plan } = useLiveWorkspace({
    threadId,
    threadStored,
    messages,
    queued,
  });
  const awaitingApproval =
    !busy && lastMessage?.role === "assistant" && pendingApprovalIds(lastMessage.parts).length > 0;

  const actionContext = {
    messages,
    locked: busy || queued.length > 0 || manualReset !== null || serverAnswering,
    failed: Boolean(error),
    regenerate: () => void regenerate(),
    continueReply,
    editLast,
    answerApproval,
    threadId: threadExists ? threadId : undefined,
    requestIds,
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ChatHeader
        threadId={threadId}
        models={models}
        model={model}
        onModelChange={setModel}
        agents={agents}
        agent={agent}
        onAgentChange={(slug) => void changeAgent(slug, threadExists)}
        busy={busy}
        threadExists={threadExists}
        resetDisabled={!threadExists || busy || queueing}
        onReset={() => void startManualReset()}
        filesOpen={filesOpen}
        filesPanelId={filesPanelId}
        onToggleFiles={() => setFilesOpen((open) => !open)}
      />
      <div className="flex min-h-0 flex-1">
        <div className="flex min-w-0 flex-1 flex-col">
          <DraftReviewProvider value={draftReview}>
            <ThreadPinsProvider threadId={threadId} pins={pins} onPinsChange={setPins}>
              <MessageList
                items={formatted.items}
                sessionStartIndex={formatted.sessionStartIndex}
                sessionAgents={formatted.sessionAgents}
                streamingIds={streamingIds}
                busy={busy}
                stoppedIds={stoppedIds}
                failedId={error && lastMessage?.role === "assistant" ? lastMessage.id : null}
                // While a draft waits, what the server holds is waiting for the review, not answered.
                answeringIds={awaitingDraft ? undefined : answeringRows}
                onCancelReset={(from) => void cancelReset(from)}
                cancellingReset={cancelling}
                onPlaceholdersNear={pages.loadNear}
                actionsFor={(message) => actionsFor(message, actionContext)}
                emptyState={<EmptyChat />}
                liveRowIds={liveRowIds}
                queuedNote={awaitingDraft ? "waits for your review of the handoff" : undefined}
              />
            </ThreadPinsProvider>
          </DraftReviewProvider>
          {error && lastMessage?.role === "user" ? (
            <FailedRequestAlert message={readableError(error)} onRetry={() => void regenerate()} />
          ) : null}
          <Composer
            value={input}
            onChange={setInput}
            onSubmit={submit}
            onStop={onStop}
            busy={busy}
            queueing={queueing}
            editing={editingId !== null}
            onCancelEdit={cancelEdit}
            maxLength={maxMessageChars}
            header={
              <>
                <PlanChecklist items={plan} />
                {awaitingApproval ? <ApprovalNotice /> : null}
              </>
            }
            footer={context ? <ContextMeter context={context} /> : null}
          />
        </div>
        <FilesPanel
          id={filesPanelId}
          base={workspaceBase}
          open={filesOpen && threadExists}
          onClose={() => setFilesOpen(false)}
          refreshKey={workspaceVersion}
        />
      </div>
    </div>
  );
}
