// The stored assistant message a run's leg streams into: opening one in the current session,
// storing what was streamed into it, and the run's progress that points at it.
import "server-only";
import { updateMessage } from "@/db/queries/messages";
import { appendMessageAfter } from "@/db/queries/placement";
import { recordRunProgress } from "@/db/queries/runs";
import type { Message } from "@/db/schema";
import type { ChatMessage, MessageStatus } from "@/lib/chat/types";
import { messageTokenCount } from "@/lib/context/message-tokens";
import { type RunState, startPlaceholder } from "./loop-state";

/** The first message's placeholder, once stored (a no-op when it was stored up front). */
async function placed(s: RunState): Promise<void> {
  startPlaceholder(s);
  if (s.placeholder.storing) await s.placeholder.storing;
}

export function setMetadata(s: RunState, row: Message): void {
  s.metadata = {
    seq: row.seq,
    sessionId: row.sessionId,
    model: s.agent.modelId,
    agent: s.agent.ref,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A stored assistant message in the current session for the next leg to stream into. */
export async function openMessage(s: RunState): Promise<void> {
  const isFirst = s.message === null;
  const stored = await appendMessageAfter({
    userId: s.agent.scope.userId,
    threadId: s.agent.scope.threadId,
    sessionId: s.session.id,
    // Directly under the question, or under this run's previous message.
    anchorId: s.message?.id ?? s.input.request.id,
    message: {
      id: isFirst ? s.liveId : crypto.randomUUID(),
      role: "assistant",
      parts: [],
      status: "partial",
      runId: s.run?.id ?? null,
      model: s.agent.modelId,
      agent: s.agent.profile.id,
    },
  });
  s.message = stored;
  s.saver.open(stored.id);
  if (isFirst) {
    setMetadata(s, stored);
    s.writer.write({
      type: "message-metadata",
      messageMetadata: { ...s.metadata, status: "partial" },
    });
  }
  await writeProgress(s);
}

export async function storeMessage(
  s: RunState,
  message: ChatMessage,
  status: MessageStatus,
): Promise<void> {
  await placed(s);
  const stored = s.message;
  if (!stored) return;
  await s.saver.seal(() =>
    updateMessage({
      userId: s.agent.scope.userId,
      threadId: s.agent.scope.threadId,
      id: stored.id,
      patch: {
        parts: message.parts,
        status,
        tokenCount: messageTokenCount(message.parts, s.agent.modelId),
      },
    }),
  );
}

/** Stores the message in flight as it stands and starts a new one in the live stream. */
export async function sealMessage(s: RunState): Promise<void> {
  await storeMessage(
    s,
    await s.out.switchMessage({ id: crypto.randomUUID(), role: "assistant", parts: [] }),
    "complete",
  );
}

export async function recordProgress(s: RunState): Promise<void> {
  await placed(s);
  await writeProgress(s);
}

async function writeProgress(s: RunState): Promise<void> {
  if (!s.run || !s.message) return;
  await recordRunProgress({
    userId: s.agent.scope.userId,
    runId: s.run.id,
    stepCount: s.stepCount,
    sessionId: s.session.id,
    messageId: s.message.id,
  });
}
