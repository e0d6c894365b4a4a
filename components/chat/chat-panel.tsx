"use client";
// The chat view: the thread's list and composer over useChat (use-baton-chat.ts), with stop,
// retry, regenerate, continue and edit-last-message; replies the server streams that this tab
// did not start, followed live (use-live-streams.ts) and placed under their questions
// (lib/chat/live-messages.ts); sessions with live context resets (queueing what is sent
// meanwhile, use-queued-messages.ts), manual resets and cancel (use-manual-reset.ts), a drafted
// handoff waiting for the user's review (use-draft-review.ts), the context meter, long-thread paging and sharing; tool calls with their approvals, the plan
// checklist and the Files panel; and messages the server answers on its own, followed by polling.
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { DraftReviewProvider } from "@/components/session/draft-editor";
import { ThreadPinsProvider } from "@/components/session/pin-context";
import { FilesPanel } from "@/components/workspace/files-panel";
import { PlanChecklist } from "@/components/workspace/plan-checklist";
import type { AgentOption } from "@/lib/agents/profile-view";
import type { ReviewSetting } from "@/lib/api/thread-schemas";
import {
  answeringFrom,
  answeringIds,
  keepsPolling,
  nextAnswering,
  progressKey,
} from "@/lib/chat/answering";
import {
  carriesResetOf,
  queuedMessages,
  runningResetIn,
  stillAnswering,
  withLiveMessages,
} from "@/lib/chat/live-messages";
import { PagedFormatter, withoutIds } from "@/lib/chat/paged-format";
import { titleFromMessage } from "@/lib/chat/request";
import { replyRequestIds } from "@/lib/chat/run-timeline";
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
import { notifyThreadStarted, notifyThreadsChanged, readableError } from "./chat-errors";
import { ChatHeader } from "./chat-header";
import { ApprovalNotice, EmptyChat, FailedRequestAlert } from "./chat-notices";
import { Composer } from "./composer";
import { ContextMeter } from "./context-meter";
import { actionsFor } from "./message-actions";
import { MessageList } from "./message-list";
import type { ModelOption } from "./model-select";
import { withResetPlaceholder } from "./reset-placeholder";
import { currentSessionNumber } from "./session-live";
import { useAnsweringPoll } from "./use-answering-poll";
import { useBatonChat } from "./use-baton-chat";
import { useDraftReview } from "./use-draft-review";
import { useEscapeToStop } from "./use-escape-to-stop";
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
  fetchThreadPage,
  type ThreadPage,
  useThreadPages,
} from "./use-thread-pages";
import { useThreadRefresh } from "./use-thread-refresh";

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
  const [input, setInput] = useState("");
  const [editingId, setEditingId] = useState<string | null>(null);
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
  const startedRef = useRef(!isNew);
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
    (query) => fetchThreadPage(`/api/threads/${threadId}`, query),
    [threadId],
  );
  const initialPage = useMemo<ThreadPage>(
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

  useEffect(() => {
    if (!isNew || startedRef.current || messages.length === 0) return;
    startedRef.current = true;
    const first = messages.find((m) => m.role === "user");
    const text = first?.parts.map((p) => (p.type === "text" ? p.text : "")).join("") ?? "";
    notifyThreadStarted({ id: threadId, title: titleFromMessage(text) });
    // The thread exists from the first POST on: give it its real address without a reload.
    window.history.replaceState(null, "", `/chat/${threadId}`);
    setTimeout(notifyThreadsChanged, 300);
  }, [isNew, messages, threadId]);

  const refresh = useThreadRefresh({
    fetchPage,
    now: { messages, queued, status, busy, followed: live.followed },
    initialLive,
    follow,
    onPage: (page) => {
      setSessions(page.sessions);
      // A run may have handed the thread to another agent.
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

  // Every reply streaming now: this tab's own, its queued messages' and the followed ones.
  const liveReplies = useMemo(
    () => [
      ...(chatBusy && lastMessage?.role === "assistant" ? [lastMessage] : []),
      ...queued.flatMap((entry) => (entry.answer && !entry.done ? [entry.answer] : [])),
      ...live.followed.flatMap((entry) => (entry.message && !entry.done ? [entry.message] : [])),
    ],
    [chatBusy, lastMessage, queued, live.followed],
  );
  const liveReset = runningResetIn(liveReplies);
  // The server's reset, unless a reply this tab holds carries it: its part is then the truth.
  const pendingServerReset =
    serverReset &&
    !carriesResetOf(
      [lastMessage, ...queued.map((e) => e.answer), ...live.followed.map((e) => e.message)],
      sessions.find((s) => s.number === serverReset.fromSession)?.id,
    )
      ? serverReset
      : null;

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

  // The server answers on its own (recovery, or messages queued behind a reset): follow it by
  // re-reading the thread, but never while this page's own stream runs.
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
    liveReset === null &&
    messages.some((m) => m.role === "user" && m.metadata?.status === "queued");
  useAnsweringPoll({
    active: waitingQueued && !busy && threadExists,
    progressKey: "queued",
    poll: refresh,
  });
  const submit = useCallback(() => {
    const text = input.trim();
    if (!text) return;
    clearError();
    if (queueing || (busy && !chatBusy)) {
      // useChat is free but the thread is not: the message goes by its own request.
      void queueMessage(text);
    } else if (editingId) {
      void sendMessage({ text, messageId: editingId });
      setEditingId(null);
    } else {
      void sendMessage({ text });
    }
    setInput("");
  }, [input, editingId, sendMessage, clearError, queueing, busy, chatBusy, queueMessage]);

  const { stoppedIds, onStop } = useStop({ threadId, liveReplies });
  useEscapeToStop(busy && !queueing && editingId === null, onStop);

  const editLast = useCallback(() => {
    if (!lastUser) return;
    setEditingId(lastUser.id);
    setInput(lastUser.parts.map((p) => (p.type === "text" ? p.text : "")).join(""));
  }, [lastUser]);

  const chatIds = useMemo(() => new Set(messages.map((m) => m.id)), [messages]);
  const olderPages = useMemo(() => withoutIds(pages.pages, chatIds), [pages.pages, chatIds]);
  const newestMessages = useMemo(
    () => withLiveMessages([...messages, ...queuedMessages(queued)], live.followed),
    [messages, queued, live.followed],
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
    () => stillAnswering(answeringIds(answering), live.followed, newestMessages),
    [answering, live.followed, newestMessages],
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
    const result = formatter.format({
      pages: olderPages,
      rest: newestMessages,
      sessions,
      covered: pages.covered,
    });
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
      : (manualReset ?? pendingServerReset);
    return withResetPlaceholder(result, reset, queuedIds);
  }, [
    formatter,
    olderPages,
    newestMessages,
    sessions,
    pages.covered,
    manualReset,
    pendingServerReset,
    awaitingDraft,
    queued,
  ]);

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
            onCancelEdit={() => {
              setEditingId(null);
              setInput("");
            }}
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
