"use client";
// The scrolling list of messages; it follows new text while a reply streams unless the reader
// has scrolled up, in which case a "Jump to latest" button appears.
import { useEffect, useRef, useState } from "react";
import type { ChatMessage } from "@/lib/chat/types";
import { type MessageActions, MessageView } from "./message-view";

export function MessageList({
  messages,
  streamingId,
  busy,
  stoppedIds,
  failedId,
  actionsFor,
}: {
  messages: ChatMessage[];
  streamingId: string | null;
  busy: boolean;
  stoppedIds: ReadonlySet<string>;
  failedId: string | null;
  actionsFor: (message: ChatMessage) => MessageActions;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [pinned, setPinned] = useState(true);
  const pinnedRef = useRef(true);

  const lastText = messages.at(-1)?.parts.length ?? 0;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when content grows.
  useEffect(() => {
    const el = scroller.current;
    if (el && pinnedRef.current) el.scrollTop = el.scrollHeight;
  }, [messages, lastText]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
    pinnedRef.current = atBottom;
    setPinned(atBottom);
  };

  if (messages.length === 0) {
    return (
      <div className="flex flex-1 flex-col items-center justify-center gap-2 p-8 text-center text-zinc-500">
        <h1 className="text-xl font-semibold text-zinc-800 dark:text-zinc-200">
          What are we working on?
        </h1>
        <p className="max-w-md text-sm">
          Long conversations never hit the context wall here: when the context fills up, Baton
          writes a handoff and continues in a fresh session.
        </p>
      </div>
    );
  }
  return (
    <div className="relative min-h-0 flex-1">
      <div
        ref={scroller}
        onScroll={onScroll}
        className="h-full overflow-y-auto"
        data-testid="message-scroller"
        aria-live="polite"
        aria-busy={busy}
      >
        <div className="mx-auto max-w-3xl py-4">
          {messages.map((m) => (
            <MessageView
              key={m.id}
              message={m}
              streaming={m.id === streamingId}
              stopped={stoppedIds.has(m.id)}
              failed={m.id === failedId}
              actions={actionsFor(m)}
            />
          ))}
        </div>
      </div>
      {!pinned ? (
        <button
          type="button"
          className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-zinc-800 px-3 py-1 text-sm text-white shadow"
          onClick={() => {
            const el = scroller.current;
            if (el) el.scrollTop = el.scrollHeight;
          }}
        >
          Jump to latest
        </button>
      ) : null}
    </div>
  );
}
