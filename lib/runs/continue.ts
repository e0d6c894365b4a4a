// Continue: a reply its server was interrupted in (status `interrupted`) goes on where it
// stopped — same message, same run — once its unfinished calls are settled as interrupted.
import "server-only";
import { BatonError } from "@/core/errors";
import { getMessage, listThreadMessages, updateMessage } from "@/db/queries/messages";
import { claimInterruptedRun } from "@/db/queries/run-claims";
import type { Message, Run } from "@/db/schema";
import { settleInterruptedCalls } from "@/lib/agents/tool-parts";
import { messageTokenCount } from "@/lib/context/message-tokens";

const cannotContinue = () => new BatonError("conflict:message", "This reply cannot be continued.");

export async function claimContinue({
  userId,
  threadId,
  messageId,
  modelId,
  instanceId,
}: {
  userId: string;
  threadId: string;
  messageId: string;
  modelId: string;
  instanceId: string;
}): Promise<{ run: Run; message: Message; request: Message }> {
  const message = await getMessage({ userId, threadId, id: messageId });
  if (message?.role !== "assistant" || message.status !== "interrupted") {
    throw cannotContinue();
  }
  // Only the newest reply: continuing an older one would answer out of order.
  const newest = (await listThreadMessages({ userId, threadId, limit: 1 })).messages[0];
  if (newest?.id !== message.id) throw cannotContinue();
  const run = await claimInterruptedRun({
    userId,
    threadId,
    messageId,
    instanceId,
    streamBaseParts: message.parts.length,
  });
  if (!run?.requestMessageId) throw cannotContinue();
  const request = await getMessage({ userId, threadId, id: run.requestMessageId });
  if (!request) throw cannotContinue();
  const parts = settleInterruptedCalls(message.parts);
  const reopened = await updateMessage({
    userId,
    threadId,
    id: message.id,
    patch: { parts, status: "partial", tokenCount: messageTokenCount(parts, modelId) },
  });
  if (!reopened) throw cannotContinue();
  return { run, message: reopened, request };
}
