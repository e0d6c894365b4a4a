// A thread with its session 1 and the built-in tools bound to it, for calling tools directly
// the way the AI SDK does (`execute(input, { toolCallId, messages })`).
import { randomUUID } from "node:crypto";
import { getCurrentSession } from "@/db/queries/sessions";
import { ensureThread } from "@/db/queries/threads";
import { type BuiltinTools, createBuiltinTools, type ToolContext } from "@/lib/agents/tools";
import { createTestUser } from "./users";

export interface ToolThread {
  userId: string;
  threadId: string;
  sessionId: string;
  tools: BuiltinTools;
  /** Calls a tool's execute with a fresh tool call id (or the given one). */
  call<N extends keyof BuiltinTools>(
    name: N,
    input: Parameters<NonNullable<BuiltinTools[N]["execute"]>>[0],
    toolCallId?: string,
  ): Promise<Record<string, unknown>>;
}

export async function createToolThread(
  overrides: Partial<ToolContext> & { userId?: string } = {},
): Promise<ToolThread> {
  const userId = overrides.userId ?? (await createTestUser());
  const threadId = randomUUID();
  await ensureThread({ userId, threadId, model: "baton/local", title: "tools" });
  const session = await getCurrentSession({ userId, threadId });
  if (!session) throw new Error("no session 1");
  const tools = createBuiltinTools({
    userId,
    threadId,
    sessionId: session.id,
    runId: null,
    isGranted: async () => false,
    ...overrides,
  });
  return {
    userId,
    threadId,
    sessionId: session.id,
    tools,
    async call(name, input, toolCallId = `call_${randomUUID()}`) {
      const execute = tools[name].execute as
        | ((input: unknown, options: { toolCallId: string; messages: [] }) => Promise<unknown>)
        | undefined;
      if (!execute) throw new Error(`${name} has no execute`);
      return (await execute(input, { toolCallId, messages: [] })) as Record<string, unknown>;
    },
  };
}
