"use client";
// The chat view: useChat over Baton's SSE endpoint, sending only the new message (the server
// holds the history), with stop, retry, regenerate, continue (a reply the server stopped while
// writing) and edit-last-message; the thread's sessions with live context resets (queueing what
// is sent meanwhile), manual resets, the context meter, long-thread paging and sharing; tool
// calls with their approvals, the plan checklist and the Files panel; and messages the server
// answers on its own, followed by polling.
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { FilesPanel } from "@/components/workspace/files-panel";
import { PlanChecklist } from "@/components/workspace/plan-checklist";
import type { AgentOption } from "@/lib/agents/profile-view";
import {
  answeringFrom,
  answeringIds,
  keepsPolling,
  nextAnswering,
  progressKey,
} from "@/lib/chat/answering";
import { type ChatBodyKind, chatRequestBody } from "@/lib/chat/chat-body";
import { formatMessages, inThreadOrder, messageGaps } from "@/lib/chat/format-messages";
import { queuedMessages, reconcileMessages, runningReset } from "@/lib/chat/live-messages";
import { replyRequestIds } from "@/lib/chat/run-timeline";
import { type ApprovalDecision, pendingApprovalIds } from "@/lib/chat/tool-view";
import type { ChatMessage, ContextPart, SessionSummary } from "@/lib/chat/types";
import { notifyThreadsChanged, readableError } from "./chat-errors";
import { ChatHeader } from "./chat-header";
import { ApprovalNotice, EmptyChat, FailedRequestAlert } from "./chat-notices";
import { Composer } from "./composer";
import { ContextMeter } from "./context-meter";
import { actionsFor } from "./message-actions";
import { MessageList } from "./message-list";
import type { ModelOption } from "./model-select";
import { withManualResetPlaceholder } from "./reset-placeholder";
import { announceAgentHandoff, announceReset, currentSessionNumber } from "./session-live";
import { useAnsweringPoll } from "./use-answering-poll";
import { useLiveWorkspace } from "./use-live-workspace";
import { useManualReset } from "./use-manual-reset";
import { useQueuedMessages } from "./use-queued-messages";
import { useThreadAgent } from "./use-thread-agent";
import {
  coverageOf,
  type FetchPage,
  fetchThreadPage,
  PAGE_SIZE,
  type ThreadPage,
  useThreadPages,
} from "./use-thread-pages";

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
  const [stoppedIds, setStoppedIds] = useState<ReadonlySet<string>>(new Set());
  const [sessions, setSessions] = useState(initialSessions);
  const [context, setContext] = useState(initialContext);
  const [answering, setAnswering] = useState(() => answeringFrom(initialAnswering));
  // Set when a turn, a queued answer or a reset ended: the stored thread is then re-read once
  // things are quiet, so the list matches a reload (seqs, sessions, counts).
  const [stale, setStale] = useState(false);
  const markStale = useCallback(() => setStale(true), []);
  const modelRef = useRef(model);
  modelRef.current = model;
  // Only a new chat's request names its agent: the server reads it to create the thread.
  const requestAgent = useRef<string | undefined>(undefined);
  requestAgent.current = isNew ? agent : undefined;
  const startedRef = useRef(!isNew);
  const sessionsRef = useRef(sessions);
  sessionsRef.current = sessions;
  // Approval ids answered "Allow for this session", named in the answer's request body.
  const allowForSession = useRef(new Set<string>());
  const requestKind = useRef<ChatBodyKind>("message");
  // A refused approval answer or continue: told in a toast, not shown as a failed reply.
  const [refusedRequest, setRefusedRequest] = useState<Error | null>(null);
  const [filesOpen, setFilesOpen] = useState(false);
  const filesPanelId = useId();

  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatMessage>({
        api: "/api/chat",
        prepareSendMessagesRequest: (request) => {
          const { kind, body } = chatRequestBody(request, {
            model: modelRef.current,
            profile: requestAgent.current,
            allowForSession: allowForSession.current,
          });
          requestKind.current = kind;
          return { body };
        },
      }),
    [],
  );

  const {
    messages,
    setMessages,
    sendMessage,
    status,
    stop,
    regenerate,
    error: chatError,
    clearError,
    addToolApprovalResponse,
  } = useChat<ChatMessage>({
    id: threadId,
    messages: initialMessages,
    transport,
    experimental_throttle: 40,
    // Answering the last approval of a step sends the answers (see lib/chat/chat-body.ts).
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onData: (part) => {
      if (part.type === "data-context") setContext(part.data);
      else if (part.type === "data-context-reset") announceReset(part.data, sessionsRef.current);
      else if (part.type === "data-agent-handoff") {
        announceAgentHandoff(part.data);
        // The thread now runs with the target: the header's agent follows at once.
        setAgent(part.data.to.id);
      }
    },
    onFinish: () => {
      notifyThreadsChanged();
      setStale(true);
    },
    onError: (err) => {
      toast.error(readableError(err));
      // A refused approval answer (another tab answered first, or the session ended) or
      // continue (the reply was continued elsewhere, or can no longer be): re-read the thread so
      // the row shows how things stand.
      if (requestKind.current === "approval" || requestKind.current === "continue") {
        setStale(true);
        setRefusedRequest(err);
      }
    },
  });
  const error = chatError && chatError !== refusedRequest ? chatError : undefined;

  const { queued, setQueued, queueMessage, abortQueued } = useQueuedMessages({
    threadId,
    transport,
    onContext: setContext,
    onSettled: markStale,
  });

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
  const busy = chatBusy || queuedInFlight;
  const lastMessage = messages.at(-1);
  const lastUser = messages.findLast((m) => m.role === "user");
  const threadExists = !isNew || messages.length > 0;

  const currentSession = useMemo(
    () => currentSessionNumber(sessions, messages, queued),
    [sessions, messages, queued],
  );

  useEffect(() => {
    if (!isNew || startedRef.current || messages.length === 0) return;
    startedRef.current = true;
    // The thread exists from the first POST on: give it its real address without a reload.
    window.history.replaceState(null, "", `/chat/${threadId}`);
    setTimeout(notifyThreadsChanged, 300);
  }, [isNew, messages.length, threadId]);

  const latest = useRef({ messages, queued, status, busy });
  latest.current = { messages, queued, status, busy };

  /** Re-reads the newest page and sessions; merges the messages only if nothing is streaming. */
  const refreshing = useRef(false);
  const refresh = useCallback(async () => {
    if (refreshing.current) return;
    refreshing.current = true;
    try {
      const page = await fetchPage({ limit: PAGE_SIZE });
      setSessions(page.sessions);
      // A run may have handed the thread to another agent.
      if (page.thread?.profile) setAgent(page.thread.profile);
      if (page.context) setContext(page.context);
      addCoverage(coverageOf({}, page));
      const now = latest.current;
      if (now.busy) {
        setStale(true);
        return;
      }
      setAnswering((previous) => nextAnswering(previous, page));
      setMessages(
        reconcileMessages([...now.messages, ...queuedMessages(now.queued, true)], page.messages),
      );
      setQueued([]);
    } catch {
      // The live copies stay; nothing sent is dropped from view.
      const now = latest.current;
      if (!now.busy && now.queued.length > 0) {
        setMessages(inThreadOrder([...now.messages, ...queuedMessages(now.queued, true)]));
        setQueued([]);
      }
    } finally {
      refreshing.current = false;
    }
  }, [fetchPage, addCoverage, setMessages, setQueued, setAgent]);

  const { manualReset, cancelling, startManualReset, cancelReset } = useManualReset({
    threadId,
    currentSession,
    refresh,
    onSettled: markStale,
  });
  const liveReset = chatBusy ? runningReset(lastMessage) : null;
  const queueing = liveReset?.event === "input_blocked" || manualReset !== null;

  useEffect(() => {
    if (!stale || busy || manualReset || !threadExists) return;
    setStale(false);
    void refresh();
  }, [stale, busy, manualReset, threadExists, refresh]);

  // The server answers on its own (recovery, or messages queued behind a reset): follow it by
  // re-reading the thread, but never while this page's own stream runs.
  const serverAnswering = keepsPolling(answering);
  useAnsweringPoll({
    active: serverAnswering && !busy && !manualReset && threadExists,
    progressKey: progressKey(answering),
    poll: refresh,
  });
  const answeringRows = useMemo(() => answeringIds(answering), [answering]);

  const submit = useCallback(() => {
    const text = input.trim();
    if (!text) return;
    clearError();
    if (queueing) {
      void queueMessage(text);
    } else if (editingId) {
      void sendMessage({ text, messageId: editingId });
      setEditingId(null);
    } else {
      void sendMessage({ text });
    }
    setInput("");
  }, [input, editingId, sendMessage, clearError, queueing, queueMessage]);

  const onStop = useCallback(() => {
    const streamingId = lastMessage?.role === "assistant" ? lastMessage.id : null;
    if (streamingId && chatBusy) setStoppedIds((s) => new Set(s).add(streamingId));
    if (chatBusy) void stop();
    abortQueued();
  }, [lastMessage, stop, chatBusy, abortQueued]);

  const editLast = useCallback(() => {
    if (!lastUser) return;
    setEditingId(lastUser.id);
    setInput(lastUser.parts.map((p) => (p.type === "text" ? p.text : "")).join(""));
  }, [lastUser]);

  /**
   * Continues an interrupted reply: the AI SDK appends the stream to the last assistant message
   * when no new message is sent, and the body names it (lib/chat/chat-body.ts). The row reads as
   * a reply in progress meanwhile; a refusal re-reads the stored copy, which is still
   * interrupted.
   */
  const continueReply = useCallback(
    (messageId: string) => {
      clearError();
      setMessages((current) =>
        current.map((m) =>
          m.id === messageId ? { ...m, metadata: { ...m.metadata, status: "partial" } } : m,
        ),
      );
      void sendMessage(undefined, { body: { continueMessageId: messageId } });
    },
    [clearError, setMessages, sendMessage],
  );

  const answerApproval = useCallback(
    (approvalId: string, decision: ApprovalDecision) => {
      if (decision === "allow_session") allowForSession.current.add(approvalId);
      void addToolApprovalResponse({ id: approvalId, approved: decision !== "deny" });
    },
    [addToolApprovalResponse],
  );

  const chatIds = useMemo(() => new Set(messages.map((m) => m.id)), [messages]);
  const listMessages = useMemo(() => {
    const older = pages.loaded.filter((m) => !chatIds.has(m.id));
    return [...older, ...messages, ...queuedMessages(queued)];
  }, [pages.loaded, chatIds, messages, queued]);

  const requestIds = useMemo(() => replyRequestIds(listMessages), [listMessages]);

  const formatted = useMemo(() => {
    const gaps = messageGaps({ sessions, messages: listMessages, covered: pages.covered });
    const result = formatMessages(listMessages, sessions, { gaps });
    return withManualResetPlaceholder(result, manualReset, queued);
  }, [listMessages, sessions, pages.covered, manualReset, queued]);

  const { workspaceBase, workspaceVersion, plan } = useLiveWorkspace({
    threadId,
    threadExists,
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
        resetDisabled={!threadExists || busy || manualReset !== null || queueing}
        onReset={() => void startManualReset()}
        filesOpen={filesOpen}
        filesPanelId={filesPanelId}
        onToggleFiles={() => setFilesOpen((open) => !open)}
      />
      <div className="flex min-h-0 flex-1">
        <div className="flex min-w-0 flex-1 flex-col">
          <MessageList
            items={formatted.items}
            sessionStartIndex={formatted.sessionStartIndex}
            sessionAgents={formatted.sessionAgents}
            streamingId={chatBusy && lastMessage?.role === "assistant" ? lastMessage.id : null}
            busy={busy}
            stoppedIds={stoppedIds}
            failedId={error && lastMessage?.role === "assistant" ? lastMessage.id : null}
            answeringIds={answeringRows}
            onCancelReset={(from) => void cancelReset(from)}
            cancellingReset={cancelling}
            onPlaceholdersNear={pages.loadNear}
            actionsFor={(message) => actionsFor(message, actionContext)}
            emptyState={<EmptyChat />}
          />
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
