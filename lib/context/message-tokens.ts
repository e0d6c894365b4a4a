// The cached per-message token estimate stored with each message (text plus framing overhead).
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from "@/lib/ai/tokens";
import { messageText } from "@/lib/chat/request";

export function messageTokenCount(parts: readonly unknown[], modelId: string): number {
  return MESSAGE_OVERHEAD_TOKENS + estimateTokens(messageText(parts), modelId);
}
