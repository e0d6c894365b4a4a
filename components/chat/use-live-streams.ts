"use client";
// Replies the server is streaming that this tab did not start (a reload, a second tab, answers
// to messages queued behind a reset, the server answering on its own): each is read from its
// start with `GET /api/chat/{id}/stream?streamId=…` and folded into a message as it streams. A
// stream that is no longer live (204) asks for one re-read of the thread instead.
import {
  type DataUIPart,
  DefaultChatTransport,
  readUIMessageStream,
  type UIMessageChunk,
} from "ai";
import { useCallback, useEffect, useRef, useState } from "react";
import { type FollowedStream, streamsToFollow } from "@/lib/chat/live-messages";
import type { BatonDataParts, ChatMessage, LiveStream } from "@/lib/chat/types";

/** A data part as it arrives, the way useChat's `onData` hands it over. */
export type LiveDataChunk = DataUIPart<BatonDataParts>;

export function useLiveStreams({
  threadId,
  onData,
  onSettled,
}: {
  threadId: string;
  /** Every data chunk a followed stream carries, as useChat's `onData` gets them. */
  onData: (chunk: LiveDataChunk) => void;
  /** A followed stream ended (or was not live any more): the thread should be re-read. */
  onSettled: () => void;
}) {
  const [followed, setFollowed] = useState<FollowedStream[]>([]);
  const started = useRef(new Set<string>());
  const aborts = useRef(new Set<AbortController>());
  const callbacks = useRef({ onData, onSettled });
  callbacks.current = { onData, onSettled };

  const read = useCallback(
    async (stream: LiveStream, base: ChatMessage | undefined) => {
      const update = (patch: Partial<FollowedStream>) =>
        setFollowed((entries) =>
          entries.map((entry) =>
            entry.stream.streamId === stream.streamId ? { ...entry, ...patch } : entry,
          ),
        );
      const controller = new AbortController();
      aborts.current.add(controller);
      const transport = new DefaultChatTransport<ChatMessage>({
        api: "/api/chat",
        prepareReconnectToStreamRequest: ({ id }) => ({
          api: `/api/chat/${encodeURIComponent(id)}/stream?${new URLSearchParams({ streamId: stream.streamId })}`,
        }),
        fetch: (input, init) => fetch(input, { ...init, signal: controller.signal }),
      });
      // How the stream ended: a reply always ends with `finish` or an error part.
      let ended = false;
      let last: ChatMessage | null = null;
      try {
        const chunks = await transport.reconnectToStream({ chatId: threadId });
        if (!chunks) return;
        const tapped = chunks.pipeThrough(
          new TransformStream<UIMessageChunk, UIMessageChunk>({
            transform(chunk, out) {
              // The server writes only Baton's data parts (docs/streams.md).
              if (chunk.type.startsWith("data-")) callbacks.current.onData(chunk as LiveDataChunk);
              if (chunk.type === "finish" || chunk.type === "error" || chunk.type === "abort") {
                ended = true;
              }
              out.enqueue(chunk);
            },
          }),
        );
        for await (const message of readUIMessageStream<ChatMessage>({
          stream: tapped,
          // A stream that continues a stored message appends to what the page already holds.
          message: base,
        })) {
          last = message;
          update({ message });
        }
      } catch {
        // The re-read below shows how the reply was stored.
      } finally {
        // Cut off with neither: the server producing it went away mid-reply. Until a re-read
        // brings the stored copy (which the restarted server marks interrupted), it reads as
        // interrupted, not as a reply the user stopped.
        if (!ended && last && !controller.signal.aborted) {
          const cut: ChatMessage = last;
          update({ message: { ...cut, metadata: { ...cut.metadata, status: "interrupted" } } });
        }
        aborts.current.delete(controller);
        if (!controller.signal.aborted) {
          update({ done: true });
          callbacks.current.onSettled();
        }
      }
    },
    [threadId],
  );

  /**
   * Starts reading the live streams this tab is not reading yet. `messages` is the list the
   * page holds (for the stored message a stream continues); `own` names what this tab's own
   * requests answer.
   */
  const follow = useCallback(
    (
      live: readonly LiveStream[],
      messages: readonly ChatMessage[],
      own: { requests: ReadonlySet<string>; messages: ReadonlySet<string> },
    ) => {
      const fresh = streamsToFollow(live, {
        followed: started.current,
        ownRequests: own.requests,
        ownMessages: own.messages,
      });
      if (fresh.length === 0) return;
      for (const stream of fresh) started.current.add(stream.streamId);
      setFollowed((entries) => [
        ...entries,
        ...fresh.map((stream) => ({ stream, message: null, done: false })),
      ]);
      for (const stream of fresh) {
        const base = stream.continuesMessageId
          ? messages.find((m) => m.id === stream.continuesMessageId)
          : undefined;
        void read(stream, base && structuredClone(base));
      }
    },
    [read],
  );

  /** Drops the ended streams once their stored copies are in the list. */
  const clearEnded = useCallback(() => {
    setFollowed((entries) => {
      const live = entries.filter((entry) => !entry.done);
      return live.length === entries.length ? entries : live;
    });
  }, []);

  useEffect(() => {
    const controllers = aborts.current;
    return () => {
      for (const controller of controllers) controller.abort();
    };
  }, []);

  const following = followed.some((entry) => !entry.done);
  return { followed, following, follow, clearEnded };
}
