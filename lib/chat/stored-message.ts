// Stored rows → the UI messages the browser and the model-message converter read.
import type { Message } from "@/db/schema";
import type { ChatMessage } from "./types";

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
