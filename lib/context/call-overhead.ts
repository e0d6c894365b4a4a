// What every model call carries besides the session's own messages: the built-in tools'
// definitions, and in a run that goes on after a reset, the continue line after the moved request.
import "server-only";
import { createBuiltinTools } from "@/lib/agents/tools";
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from "@/lib/ai/token-count";
import { toolSetTokens } from "@/lib/ai/tool-definitions";

/** The user-role line that follows the moved request in a session a run continues in. */
export const CONTINUE_INSTRUCTION = "Continue the task from the carried-over context.";

export function continueLineTokens(modelId: string): number {
  return MESSAGE_OVERHEAD_TOKENS + estimateTokens(CONTINUE_INSTRUCTION, modelId);
}

const toolTokensByModel = new Map<string, Promise<number>>();

/**
 * What the built-in tools' definitions cost in every call of `modelId` (the same for every
 * thread and session: descriptions and schemas do not depend on them).
 */
export function builtinToolTokens(modelId: string): Promise<number> {
  let known = toolTokensByModel.get(modelId);
  if (!known) {
    const tools = createBuiltinTools({
      userId: "",
      threadId: "",
      sessionId: "",
      runId: null,
      isGranted: async () => false,
    });
    known = toolSetTokens(tools, modelId);
    toolTokensByModel.set(modelId, known);
  }
  return known;
}
