// The cached per-message token estimate stored with each message: its text, its tool calls and
// their results (what a model is sent again on the next call), plus framing overhead.

import { asToolPart } from "@/lib/agents/tool-parts";
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from "@/lib/ai/token-count";
import { messageText } from "@/lib/chat/request";

const json = (value: unknown) => (value === undefined ? "" : (JSON.stringify(value) ?? ""));

export function messageTokenCount(parts: readonly unknown[], modelId: string): number {
  let total = MESSAGE_OVERHEAD_TOKENS + estimateTokens(messageText(parts), modelId);
  let toolMessage = false;
  for (const raw of parts) {
    const part = asToolPart(raw);
    if (!part) continue;
    total += estimateTokens(part.toolName, modelId) + estimateTokens(json(part.input), modelId);
    if (part.state === "output-available" || part.state === "output-error") {
      toolMessage = true;
      const output =
        part.state === "output-error" ? (raw as { errorText?: unknown }).errorText : part.output;
      total += estimateTokens(part.toolName, modelId) + estimateTokens(json(output), modelId);
    } else if (part.state === "output-denied") {
      toolMessage = true;
      total += estimateTokens(part.approval?.reason ?? "", modelId) + 2;
    }
  }
  // Results travel in a tool message of their own.
  return toolMessage ? total + MESSAGE_OVERHEAD_TOKENS : total;
}
