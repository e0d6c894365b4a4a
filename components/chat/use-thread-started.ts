"use client";
// A new thread's first message: the sidebar learns of the thread and the address bar gets the
// thread's own address, once, without a reload.
import { useEffect, useRef } from "react";
import { titleFromMessage } from "@/lib/chat/request";
import type { ChatMessage } from "@/lib/chat/types";
import { notifyThreadStarted, notifyThreadsChanged } from "./chat-errors";

export function useThreadStarted({
  threadId,
  isNew,
  messages,
}: {
  threadId: string;
  isNew: boolean;
  messages: ChatMessage[];
}) {
  const startedRef = useRef(!isNew);
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
}
