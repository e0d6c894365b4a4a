"use client";
// The chat view: useChat over Baton's SSE endpoint, sending only the new message (the server
// holds the history), with stop, retry, regenerate and edit-last-message.
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import type { ChatMessage } from "@/lib/chat/types";
import { Composer } from "./composer";
import { MessageList } from "./message-list";
import { type ModelOption, ModelSelect } from "./model-select";

export interface ChatPanelProps {
  threadId: string;
  initialMessages: ChatMessage[];
  models: ModelOption[];
  initialModel: string;
  maxMessageChars: number;
  isNew: boolean;
}

function notifyThreadsChanged() {
  window.dispatchEvent(new CustomEvent("baton:threads-changed"));
}

export function ChatPanel({
  threadId,
  initialMessages,
  models,
  initialModel,
  maxMessageChars,
  isNew,
}: ChatPanelProps) {
  const [model, setModel] = useState(initialModel);
  const [input, setInput] = useState("");
  const [editingId, setEditingId] = useState<string | null>(null);
  const [stoppedIds, setStoppedIds] = useState<ReadonlySet<string>>(new Set());
  const modelRef = useRef(model);
  modelRef.current = model;
  const startedRef = useRef(!isNew);

  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatMessage>({
        api: "/api/chat",
        prepareSendMessagesRequest: ({ id, messages, trigger, messageId }) => {
          const last = messages.at(-1);
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

  const { messages, sendMessage, status, stop, regenerate, error, clearError } =
    useChat<ChatMessage>({
      id: threadId,
      messages: initialMessages,
      transport,
      onFinish: () => notifyThreadsChanged(),
      onError: (err) => {
        toast.error(readableError(err));
      },
    });

  const busy = status === "submitted" || status === "streaming";
  const lastMessage = messages.at(-1);
  const lastUser = messages.findLast((m) => m.role === "user");

  useEffect(() => {
    if (!isNew || startedRef.current || messages.length === 0) return;
    startedRef.current = true;
    // The thread exists from the first POST on: give it its real address without a reload.
    window.history.replaceState(null, "", `/chat/${threadId}`);
    setTimeout(notifyThreadsChanged, 300);
  }, [isNew, messages.length, threadId]);

  const submit = useCallback(() => {
    const text = input.trim();
    if (!text) return;
    clearError();
    if (editingId) {
      void sendMessage({ text, messageId: editingId });
      setEditingId(null);
    } else {
      void sendMessage({ text });
    }
    setInput("");
  }, [input, editingId, sendMessage, clearError]);

  const onStop = useCallback(() => {
    const streamingId = lastMessage?.role === "assistant" ? lastMessage.id : null;
    if (streamingId) setStoppedIds((s) => new Set(s).add(streamingId));
    void stop();
  }, [lastMessage, stop]);

  const editLast = useCallback(() => {
    if (!lastUser) return;
    setEditingId(lastUser.id);
    setInput(lastUser.parts.map((p) => (p.type === "text" ? p.text : "")).join(""));
  }, [lastUser]);

  const offline = models.find((m) => m.id === model)?.offline ?? false;

  return (
    <div className="flex h-full min-h-0 flex-col">
      <header className="flex items-center justify-between gap-2 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
        <ModelSelect models={models} value={model} onChange={setModel} disabled={busy} />
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
      <MessageList
        messages={messages}
        streamingId={busy && lastMessage?.role === "assistant" ? lastMessage.id : null}
        busy={busy}
        stoppedIds={stoppedIds}
        failedId={error && lastMessage?.role === "assistant" ? lastMessage.id : null}
        actionsFor={(message) => {
          if (busy) return {};
          if (message.id === lastMessage?.id && message.role === "assistant") {
            return error
              ? { onRetry: () => void regenerate() }
              : { onRegenerate: () => void regenerate() };
          }
          if (message.id === lastUser?.id) {
            return error && lastMessage?.id === message.id
              ? { onRetry: () => void regenerate(), onEdit: editLast }
              : { onEdit: editLast };
          }
          return {};
        }}
      />
      {error && lastMessage?.role === "user" ? (
        <div role="alert" className="flex items-center gap-3 px-4 py-2 text-sm text-red-600">
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
        editing={editingId !== null}
        onCancelEdit={() => {
          setEditingId(null);
          setInput("");
        }}
        maxLength={maxMessageChars}
      />
    </div>
  );
}

function readableError(error: Error): string {
  try {
    const parsed = JSON.parse(error.message) as { error?: { message?: string } };
    if (parsed.error?.message) return parsed.error.message;
  } catch {
    // Not a JSON error body: fall through.
  }
  return error.message || "Something went wrong.";
}
