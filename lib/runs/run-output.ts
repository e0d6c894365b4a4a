// The run's one UI message stream, and a copy of it per stored message: every chunk written to
// the client is also folded (by the AI SDK's own reader) into the assistant message of the
// session it belongs to, so what is stored is exactly what the live stream showed.
import "server-only";
import { readUIMessageStream, type UIMessageChunk, type UIMessageStreamWriter } from "ai";
import { log } from "@/core/log";
import type { ChatSession } from "@/db/schema";
import type { ChatMessage, ContextPart, SessionPart } from "@/lib/chat/types";

type Chunk = UIMessageChunk<ChatMessage["metadata"], never> | Parameters<Writer["write"]>[0];
type Writer = UIMessageStreamWriter<ChatMessage>;

/** Folds chunks into one message; `finish` returns the message with every chunk applied. */
class MessageRecorder {
  private controller!: ReadableStreamDefaultController<Chunk>;
  private closed = false;
  private readonly result: Promise<ChatMessage>;
  private latest: ChatMessage | null = null;
  private readonly initial: ChatMessage;

  constructor(start: ChatMessage) {
    // The reader mutates the message it continues; keep the caller's copy intact.
    const initial = structuredClone(start);
    this.initial = initial;
    const stream = new ReadableStream<Chunk>({
      start: (controller) => {
        this.controller = controller;
      },
    });
    this.result = (async () => {
      for await (const message of readUIMessageStream<ChatMessage>({
        message: initial,
        stream: stream as ReadableStream<UIMessageChunk>,
        onError: (error) => log.error("recording a message failed", error),
      })) {
        this.latest = message;
      }
      return this.latest ?? initial;
    })();
  }

  /** The message as recorded so far (what the client has been shown). */
  peek(): ChatMessage {
    return this.latest ?? this.initial;
  }

  push(chunk: Chunk) {
    if (!this.closed) this.controller.enqueue(chunk);
  }

  async finish(): Promise<ChatMessage> {
    if (!this.closed) {
      this.closed = true;
      this.controller.close();
    }
    return this.result;
  }
}

/** Chunks that describe the stream itself, not the message's content. */
const STREAM_ONLY = new Set(["start", "finish", "message-metadata", "abort", "error"]);

export class RunOutput {
  private recorder: MessageRecorder | null;

  /** `initial`: the message recording starts in, so chunks written before any call are kept. */
  /** `observe`: told of every chunk written (the run's journal reads reset events there). */
  constructor(
    private readonly writer: Writer,
    initial: ChatMessage,
    private readonly observe?: (chunk: Parameters<Writer["write"]>[0]) => void,
  ) {
    this.recorder = new MessageRecorder(initial);
  }

  write(chunk: Parameters<Writer["write"]>[0]) {
    this.writer.write(chunk);
    this.observe?.(chunk);
    if (!STREAM_ONLY.has(chunk.type)) this.recorder?.push(chunk);
  }

  writeSession(session: ChatSession) {
    const data: SessionPart = {
      id: session.id,
      number: session.number,
      model: session.model,
      profile: session.profile,
      trigger: session.trigger,
      startedAt: session.startedAt.toISOString(),
    };
    this.write({ type: "data-session", id: `session-${session.id}`, data });
  }

  /** The context meter's reading; transient, so it is never stored. */
  writeContext(context: ContextPart) {
    this.writer.write({ type: "data-context", data: context, transient: true });
  }

  /**
   * The message recorded so far (changed by `edit`, e.g. to settle calls); recording goes on in
   * it. Call only between writes: chunks written while this waits would be lost.
   */
  async takeMessage(edit?: (current: ChatMessage) => ChatMessage): Promise<ChatMessage> {
    const recorder = this.recorder;
    if (!recorder) throw new Error("the run output is closed");
    const recorded = await recorder.finish();
    const current = edit ? edit(recorded) : recorded;
    this.recorder = new MessageRecorder(current);
    return current;
  }

  /** Ends the current message (returned) and records later chunks into `next`. */
  async switchMessage(next: ChatMessage): Promise<ChatMessage> {
    const recorder = this.recorder;
    if (!recorder) throw new Error("the run output is closed");
    const current = await recorder.finish();
    this.recorder = new MessageRecorder(next);
    return current;
  }

  /** The message being recorded, as far as it got (for saving while it streams). */
  peek(): ChatMessage | null {
    return this.recorder?.peek() ?? null;
  }

  /** A chunk for the client only, for a change already applied to the recorded message. */
  writeToClient(chunk: Parameters<Writer["write"]>[0]) {
    this.writer.write(chunk);
  }

  /** Ends recording; returns the last message. */
  async close(): Promise<ChatMessage | null> {
    const recorder = this.recorder;
    this.recorder = null;
    return recorder ? recorder.finish() : null;
  }
}
