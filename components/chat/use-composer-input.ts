"use client";
// The composer's text and the last message being edited: sending goes through useChat when it is
// free, or as a queued message of its own while the thread is busy or a reset holds it.
import { useCallback, useState } from "react";
import type { ChatMessage } from "@/lib/chat/types";

export function useComposerInput({
  lastUser,
  queueing,
  busy,
  chatBusy,
  sendMessage,
  queueMessage,
  clearError,
}: {
  /** The last user message, the one "edit" reopens. */
  lastUser: ChatMessage | undefined;
  queueing: boolean;
  busy: boolean;
  chatBusy: boolean;
  sendMessage: (message: { text: string; messageId?: string }) => Promise<void>;
  queueMessage: (text: string) => Promise<void>;
  clearError: () => void;
}) {
  const [input, setInput] = useState("");
  const [editingId, setEditingId] = useState<string | null>(null);

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

  const editLast = useCallback(() => {
    if (!lastUser) return;
    setEditingId(lastUser.id);
    setInput(lastUser.parts.map((p) => (p.type === "text" ? p.text : "")).join(""));
  }, [lastUser]);

  const cancelEdit = useCallback(() => {
    setEditingId(null);
    setInput("");
  }, []);

  return { input, setInput, editingId, submit, editLast, cancelEdit };
}
