"use client";
// The chat view: useChat over Baton's SSE endpoint, sending only the new message (the server
// holds the history), with stop, retry, regenerate and edit-last-message; the thread's sessions
// with live context resets (queueing what is sent meanwhile), manual resets, the context meter,
// long-thread paging and sharing; tool calls with their approvals, the plan checklist and the
// Files panel.
import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  readUIMessageStream,
  type UIMessageChunk,
} from "ai";
import { useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { FilesPanel } from "@/components/workspace/files-panel";
import { PlanChecklist } from "@/components/workspace/plan-checklist";
import { usePlan } from "@/components/workspace/use-plan";
import { ownerWorkspaceBase } from "@/components/workspace/workspace-api";
import { approvalAnswerBody } from "@/lib/chat/approval-body";
import {
  formatMessages,
  inThreadOrder,
  type ListItem,
  messageGaps,
} from "@/lib/chat/format-messages";
import {
  answerRanAcrossReset,
  type QueuedEntry,
  queuedMessages,
  reconcileMessages,
  runningReset,
  spansSessions,
} from "@/lib/chat/live-messages";
import {
  type ApprovalDecision,
  latestStreamedPlan,
  pendingApprovalIds,
  workspaceChangeCount,
} from "@/lib/chat/tool-view";
import type { ChatMessage, ContextPart, ContextResetPart, SessionSummary } from "@/lib/chat/types";
import { Composer } from "./composer";
import { ContextMeter } from "./context-meter";
import { MessageList } from "./message-list";
import { type ModelOption, ModelSelect } from "./model-select";
import { SharePanel } from "./share-panel";
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
  models: ModelOption[];
  initialModel: string;
  maxMessageChars: number;
  isNew: boolean;
}

function notifyThreadsChanged() {
  window.dispatchEvent(new CustomEvent("baton:threads-changed"));
}

async function errorOf(response: Response): Promise<{ code?: string; message: string }> {
  const body = (await response.json().catch(() => null)) as {
    error?: { code?: string; message?: string };
  } | null;
  return {
    code: body?.error?.code,
    message: body?.error?.message ?? `The server answered ${response.status}.`,
  };
}

export function ChatPanel({
  threadId,
  initialMessages,
  initialSessions,
  initialContext,
  olderCursor,
  models,
  initialModel,
  maxMessageChars,
  isNew,
}: ChatPanelProps) {
  const [model, setModel] = useState(initialModel);
  const [input, setInput] = useState("");
  const [editingId, setEditingId] = useState<string | null>(null);
  const [stoppedIds, setStoppedIds] = useState<ReadonlySet<string>>(new Set());
  const [sessions, setSessions] = useState(initialSessions);
  const [context, setContext] = useState(initialContext);
  const [queued, setQueued] = useState<QueuedEntry[]>([]);
  const [manualReset, setManualReset] = useState<{ fromSession: number } | null>(null);
  const [cancelling, setCancelling] = useState(false);
  // Set when a turn, a queued answer or a reset ended: the stored thread is then re-read once
  // things are quiet, so the list matches a reload (seqs, sessions, counts).
  const [stale, setStale] = useState(false);
  const modelRef = useRef(model);
  modelRef.current = model;
  const startedRef = useRef(!isNew);
  const queuedAborts = useRef(new Map<string, AbortController>());
  const cancelRequested = useRef(false);
  const sessionsRef = useRef(sessions);
  sessionsRef.current = sessions;
  // Approval ids answered "Allow for this session", named in the answer's request body.
  const allowForSession = useRef(new Set<string>());
  const answeringApproval = useRef(false);
  const [refusedAnswer, setRefusedAnswer] = useState<Error | null>(null);
  const [filesOpen, setFilesOpen] = useState(false);
  const filesPanelId = useId();

  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatMessage>({
        api: "/api/chat",
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => {
          const last = messages.at(-1);
          // An approval answer: the assistant message goes back with only its answered calls.
          const answer =
            trigger === "submit-message" && last?.role === "assistant"
              ? approvalAnswerBody(last, allowForSession.current)
              : null;
          answeringApproval.current = answer !== null;
          if (answer) return { body: { id, trigger, model: modelRef.current, ...answer } };
          const body =
            trigger === "submit-message" && last
              ? {
                  id,
                  trigger,
                  model: modelRef.current,
                  message: { id: last.id, role: last.role, parts: last.parts },
                }
              : { id, trigger, messageId, model: modelRef.current };
          return { body };
        },
      }),
    [],
  );

  const sessionNumberOf = useCallback(
    (sessionId: string | undefined) => sessionsRef.current.find((s) => s.id === sessionId)?.number,
    [],
  );

  // Plain toasts, not the Toaster's rich success colours: those fall below 4.5:1 contrast.
  const announceReset = useCallback(
    (data: ContextResetPart) => {
      const from = sessionNumberOf(data.oldSessionId);
      const inSession = from ? ` — continuing in session ${from}` : "";
      if (data.event === "reset_complete" && data.sessionNumber) {
        toast(`Session ${data.sessionNumber} started — context was reset`);
      } else if (data.event === "reset_cancelled") {
        toast(`Context reset cancelled${inSession}`);
      } else if (data.event === "reset_failed") {
        toast.error(`Context reset failed${inSession}. ${data.reason ?? ""}`.trim());
      }
    },
    [sessionNumberOf],
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
    // Answering the last approval of a step sends the answers (see prepareSendMessagesRequest).
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onData: (part) => {
      if (part.type === "data-context") setContext(part.data);
      else if (part.type === "data-context-reset") announceReset(part.data);
    },
    onFinish: () => {
      notifyThreadsChanged();
      setStale(true);
    },
    onError: (err) => {
      toast.error(readableError(err));
      // A refused approval answer (another tab answered first, or the session ended): re-read
      // the thread so the card shows how the call was settled.
      if (answeringApproval.current) {
        setStale(true);
        setRefusedAnswer(err);
      }
    },
  });
  // A refused approval answer is told in a toast, and the card shows the outcome after the
  // refresh: no reply failed, so it is not shown as a failure.
  const error = chatError && chatError !== refusedAnswer ? chatError : undefined;

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
  const liveReset = chatBusy ? runningReset(lastMessage) : null;
  const queueing = liveReset?.event === "input_blocked" || manualReset !== null;
  const threadExists = !isNew || messages.length > 0;

  const currentSession = useMemo(() => {
    let number = sessions.at(-1)?.number ?? 1;
    const recent = [...messages.slice(-4), ...queued.flatMap((e) => (e.answer ? [e.answer] : []))];
    for (const message of recent) {
      for (const part of message.parts) {
        if (part.type === "data-session") number = Math.max(number, part.data.number);
      }
    }
    return number;
  }, [sessions, messages, queued]);

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
      if (page.context) setContext(page.context);
      addCoverage(coverageOf({}, page));
      const now = latest.current;
      if (now.busy) {
        setStale(true);
        return;
      }
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
  }, [fetchPage, addCoverage, setMessages]);

  useEffect(() => {
    if (!stale || busy || manualReset || !threadExists) return;
    setStale(false);
    void refresh();
  }, [stale, busy, manualReset, threadExists, refresh]);

  /** Sends a message while a reset runs: its own POST, folded into a message as it streams. */
  const queueMessage = useCallback(
    async (text: string) => {
      const user: ChatMessage = {
        id: crypto.randomUUID(),
        role: "user",
        parts: [{ type: "text", text }],
        metadata: { status: "queued" },
      };
      const controller = new AbortController();
      queuedAborts.current.set(user.id, controller);
      setQueued((entries) => [...entries, { user, answer: null, done: false }]);
      const update = (patch: Partial<QueuedEntry>) =>
        setQueued((entries) =>
          entries.map((entry) => (entry.user.id === user.id ? { ...entry, ...patch } : entry)),
        );
      try {
        const chunks = await transport.sendMessages({
          chatId: threadId,
          messages: [user],
          trigger: "submit-message",
          messageId: undefined,
          abortSignal: controller.signal,
        });
        // Transient parts never reach the folded message: read the context reading here.
        const tapped = chunks.pipeThrough(
          new TransformStream<UIMessageChunk, UIMessageChunk>({
            transform(chunk, out) {
              if (chunk.type === "data-context") setContext(chunk.data as ContextPart);
              out.enqueue(chunk);
            },
          }),
        );
        for await (const answer of readUIMessageStream<ChatMessage>({
          stream: tapped,
          onError: (err) => toast.error(readableError(err)),
        })) {
          update({ answer });
        }
      } catch (err) {
        if (!controller.signal.aborted) toast.error(readableError(err));
      } finally {
        queuedAborts.current.delete(user.id);
        update({ done: true });
        setStale(true);
      }
    },
    [transport, threadId],
  );

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
    for (const controller of queuedAborts.current.values()) controller.abort();
  }, [lastMessage, stop, chatBusy]);

  const editLast = useCallback(() => {
    if (!lastUser) return;
    setEditingId(lastUser.id);
    setInput(lastUser.parts.map((p) => (p.type === "text" ? p.text : "")).join(""));
  }, [lastUser]);

  const startManualReset = useCallback(async () => {
    const fromSession = currentSession;
    cancelRequested.current = false;
    setManualReset({ fromSession });
    try {
      const response = await fetch(`/api/threads/${threadId}/reset`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ fromSession }),
      });
      if (response.ok) {
        const body = (await response.json()) as { session: { number: number } };
        // The new divider (with its handoff) replaces the placeholder in the same update.
        await refresh();
        toast(`Session ${body.session.number} started — context was reset`);
      } else if (cancelRequested.current) {
        toast(`Context reset cancelled — continuing in session ${fromSession}`);
      } else {
        toast.error(`Context reset failed: ${(await errorOf(response)).message}`);
      }
    } catch {
      toast.error("Could not reach the server to reset the context.");
    } finally {
      setManualReset(null);
      setStale(true);
    }
  }, [currentSession, threadId, refresh]);

  const cancelReset = useCallback(
    async (fromSession: number) => {
      setCancelling(true);
      cancelRequested.current = true;
      try {
        const response = await fetch(`/api/threads/${threadId}/reset/cancel`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ fromSession }),
        });
        if (response.status === 409) {
          cancelRequested.current = false;
          toast("The reset had already completed.");
        } else if (!response.ok) {
          cancelRequested.current = false;
          toast.error(`Could not cancel the reset: ${(await errorOf(response)).message}`);
        }
      } catch {
        toast.error("Could not reach the server to cancel the reset.");
      } finally {
        setCancelling(false);
      }
    },
    [threadId],
  );

  const chatIds = useMemo(() => new Set(messages.map((m) => m.id)), [messages]);
  const listMessages = useMemo(() => {
    const older = pages.loaded.filter((m) => !chatIds.has(m.id));
    return [...older, ...messages, ...queuedMessages(queued)];
  }, [pages.loaded, chatIds, messages, queued]);

  const formatted = useMemo(() => {
    const gaps = messageGaps({ sessions, messages: listMessages, covered: pages.covered });
    const result = formatMessages(listMessages, sessions, { gaps });
    const upcoming = (manualReset?.fromSession ?? 0) + 1;
    if (!manualReset || result.sessionStartIndex[upcoming] !== undefined) return result;
    // A manual reset runs outside the stream: its placeholder goes after what was sent before
    // it, above the messages queued behind it.
    const firstQueued = new Set(queued.map((e) => e.user.id));
    const at = result.items.findIndex(
      (item) => item.kind === "message" && firstQueued.has(item.message.id),
    );
    const placeholder: ListItem = {
      kind: "session_divider",
      key: `session:${upcoming}`,
      sessionNumber: upcoming,
      session: {
        id: "",
        number: upcoming,
        model: "",
        profile: "",
        trigger: "manual",
        startedAt: "",
        endedAt: null,
        firstSeq: null,
        messageCount: 0,
        handoff: null,
      },
      live: { event: "input_blocked" },
    };
    const items = [...result.items];
    items.splice(at < 0 ? items.length : at, 0, placeholder);
    return { items, sessionStartIndex: result.sessionStartIndex };
  }, [listMessages, sessions, pages.covered, manualReset, queued]);

  const offline = models.find((m) => m.id === model)?.offline ?? false;

  const answerApproval = useCallback(
    (approvalId: string, decision: ApprovalDecision) => {
      if (decision === "allow_session") allowForSession.current.add(approvalId);
      void addToolApprovalResponse({ id: approvalId, approved: decision !== "deny" });
    },
    [addToolApprovalResponse],
  );
  // The files panel reloads when a write, edit or delete finishes; the plan follows update_plan.
  const liveMessages = useMemo(
    () => [...messages, ...queued.flatMap((e) => (e.answer ? [e.answer] : []))],
    [messages, queued],
  );
  const workspaceVersion = useMemo(() => workspaceChangeCount(liveMessages), [liveMessages]);
  const streamedPlan = useMemo(() => latestStreamedPlan(liveMessages), [liveMessages]);
  const workspaceBase = ownerWorkspaceBase(threadId);
  const plan = usePlan(workspaceBase, threadExists, streamedPlan);
  const awaitingApproval =
    !busy && lastMessage?.role === "assistant" && pendingApprovalIds(lastMessage.parts).length > 0;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      {/* On narrow screens the sidebar's menu button sits over the header's left edge. */}
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-200 py-2 pr-4 pl-14 md:pl-4 dark:border-zinc-800">
        <ModelSelect models={models} value={model} onChange={setModel} disabled={busy} />
        <div className="flex items-center gap-2">
          <Button
            variant="secondary"
            disabled={!threadExists || busy || manualReset !== null || queueing}
            onClick={() => void startManualReset()}
            title="Write a handoff now and continue in a fresh session"
          >
            New session with handoff
          </Button>
          <Button
            variant="secondary"
            aria-expanded={filesOpen}
            aria-controls={filesPanelId}
            className={filesOpen ? "bg-zinc-100! dark:bg-zinc-800!" : ""}
            disabled={!threadExists}
            onClick={() => setFilesOpen((open) => !open)}
          >
            Files
          </Button>
          <SharePanel threadId={threadId} disabled={!threadExists} />
        </div>
      </header>
      {offline ? (
        <div
          className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200"
          data-testid="offline-notice"
        >
          You are chatting with <strong>baton/local</strong>, an offline demo model with no AI
          behind it. To connect a real model, set <code>OPENAI_API_KEY</code>,{" "}
          <code>ANTHROPIC_API_KEY</code> or <code>OPENAI_COMPATIBLE_BASE_URL</code> and restart.
        </div>
      ) : null}
      <div className="flex min-h-0 flex-1">
        <div className="flex min-w-0 flex-1 flex-col">
          <MessageList
            items={formatted.items}
            sessionStartIndex={formatted.sessionStartIndex}
            streamingId={chatBusy && lastMessage?.role === "assistant" ? lastMessage.id : null}
            busy={busy}
            stoppedIds={stoppedIds}
            failedId={error && lastMessage?.role === "assistant" ? lastMessage.id : null}
            onCancelReset={(from) => void cancelReset(from)}
            cancellingReset={cancelling}
            onPlaceholdersNear={pages.loadNear}
            actionsFor={(message) => {
              if (busy || queued.length > 0 || manualReset) return {};
              // The server refuses to edit or regenerate an answer that ran across a reset.
              const fixed = answerRanAcrossReset(messages);
              if (message.id === lastMessage?.id && message.role === "assistant") {
                // A live run that reset midway waits in its stored second half: answerable once the
                // refresh after the run has put that message in place.
                const answerable =
                  pendingApprovalIds(message.parts).length > 0 && !spansSessions(lastMessage);
                const approval = answerable ? { onApproval: answerApproval } : {};
                if (fixed) return approval;
                return error
                  ? { onRetry: () => void regenerate(), ...approval }
                  : { onRegenerate: () => void regenerate(), ...approval };
              }
              if (message.id === lastUser?.id && !fixed) {
                return error && lastMessage?.id === message.id
                  ? { onRetry: () => void regenerate(), onEdit: editLast }
                  : { onEdit: editLast };
              }
              return {};
            }}
            emptyState={
              <div className="flex h-full flex-col items-center justify-center gap-2 p-8 text-center text-zinc-600 dark:text-zinc-400">
                <h1 className="text-xl font-semibold text-zinc-800 dark:text-zinc-200">
                  What are we working on?
                </h1>
                <p className="max-w-md text-sm">
                  Long conversations never hit the context wall here: when the context fills up,
                  Baton writes a handoff and continues in a fresh session.
                </p>
              </div>
            }
          />
          {error && lastMessage?.role === "user" ? (
            <div role="alert" className="flex items-center gap-3 px-4 py-2 text-sm text-red-700">
              {readableError(error)}
              <button type="button" className="underline" onClick={() => void regenerate()}>
                Retry
              </button>
            </div>
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
                {awaitingApproval ? (
                  <p
                    role="status"
                    className="mb-2 text-xs text-amber-900 dark:text-amber-200"
                    data-testid="approval-notice"
                  >
                    The agent is waiting for your approval in the reply above. Sending a message
                    instead denies it.
                  </p>
                ) : null}
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

function readableError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  try {
    const parsed = JSON.parse(message) as { error?: { message?: string } };
    if (parsed.error?.message) return parsed.error.message;
  } catch {
    // Not a JSON error body: fall through.
  }
  return message || "Something went wrong.";
}
