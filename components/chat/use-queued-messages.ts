"use client";
// Messages sent while a reset runs: useChat is busy with the reset's stream, so each is sent by
// its own POST through the same transport and its answer is folded into a message as it streams.
// Nothing aborts these requests: a stop reaches the server through its own route.
import { type ChatTransport, readUIMessageStream, type UIMessageChunk } from "ai";
import { useCallback, useState } from "react";
import { toast } from "sonner";
import type { QueuedEntry } from "@/lib/chat/live-messages";
import type { ChatMessage, ContextPart } from "@/lib/chat/types";
import { readableError } from "./chat-errors";

export function useQueuedMessages({
  threadId,
  transport,
  onContext,
  onSettled,
}: {
  threadId: string;
  transport: ChatTransport<ChatMessage>;
  onContext: (context: ContextPart) => void;
  /** Called when a queued message's answer ended, however it ended. */
  onSettled: () => void;
}) {
  const [queued, setQueued] = useState<QueuedEntry[]>([]);

  const queueMessage = useCallback(
    async (text: string) => {
      const user: ChatMessage = {
        id: crypto.randomUUID(),
        role: "user",
        parts: [{ type: "text", text }],
        metadata: { status: "queued" },
      };
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
          abortSignal: undefined,
        });
        // Transient parts never reach the folded message: read the context reading here.
        const tapped = chunks.pipeThrough(
          new TransformStream<UIMessageChunk, UIMessageChunk>({
            transform(chunk, out) {
              if (chunk.type === "data-context") onContext(chunk.data as ContextPart);
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
        toast.error(readableError(err));
      } finally {
        update({ done: true });
        onSettled();
      }
    },
    [transport, threadId, onContext, onSettled],
  );

  return { queued, setQueued, queueMessage };
}
