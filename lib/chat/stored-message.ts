// Stored rows → the UI messages the browser and the model-message converter read.
import type { Message } from "@/db/schema";
import type { AgentRef, ChatMessage } from "./types";

export function toChatMessage(row: Message): ChatMessage {
  return {
    id: row.id,
    role: row.role,
    parts: row.parts as ChatMessage["parts"],
    metadata: {
      seq: row.seq,
      sessionId: row.sessionId,
      status: row.status,
      model: row.model ?? undefined,
      createdAt: row.createdAt.toISOString(),
      ...(row.compacted ? { compacted: true } : {}),
    },
  };
}

/** The message as the thread view shows it: an assistant reply names the agent that wrote it. */
export function toAttributedMessage(row: Message, agent: AgentRef): ChatMessage {
  const message = toChatMessage(row);
  if (row.role === "assistant") message.metadata = { ...message.metadata, agent };
  return message;
}
