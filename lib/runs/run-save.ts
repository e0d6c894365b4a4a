// Saving a reply while it streams: the stored assistant row follows what the client was shown
// at least every SAVE_INTERVAL_MS, so a server that dies mid-reply keeps what the user saw.
// Every write of the message — these saves and the leg's final store — goes through one queue,
// so an older snapshot can never land after the final parts.
import "server-only";
import { log } from "@/core/log";
import { savePartialParts } from "@/db/queries/messages-partial";
import type { ChatMessage } from "@/lib/chat/types";

export const SAVE_INTERVAL_MS = 500;

export class ReplySaver {
  private queue: Promise<unknown> = Promise.resolve();
  private messageId: string | null = null;
  private saved = "";

  constructor(
    private readonly scope: { userId: string; threadId: string },
    private readonly snapshot: () => ChatMessage | null,
  ) {}

  /** Saves go to `messageId` from now on (a newly opened, still partial message). */
  open(messageId: string, parts: readonly unknown[] = []): void {
    this.messageId = messageId;
    this.saved = JSON.stringify(parts);
  }

  /** Queues a save when the message changed since the last one. */
  tick(): void {
    const id = this.messageId;
    const message = id ? this.snapshot() : null;
    if (!id || !message) return;
    const json = JSON.stringify(message.parts);
    if (json === this.saved) return;
    this.saved = json;
    const parts = JSON.parse(json) as unknown[];
    this.queue = this.queue
      .then(() => savePartialParts({ ...this.scope, id, parts }))
      .catch((error) => log.warn("reply save failed", error));
  }

  /** Stops saving this message and runs `write` (its final store) after any save in flight. */
  async seal<T>(write: () => Promise<T>): Promise<T> {
    this.messageId = null;
    const result = this.queue.then(write);
    this.queue = result.catch(() => undefined);
    return result;
  }
}
