// A server that dies right after an accepted handoff: the handoff was committed before the tool
// answered, so the live server that recovers the thread answers the request as the target, in
// the target's session, from the brief — never as the source, never handing off a second time.
import { randomUUID } from "node:crypto";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listSessions } from "@/db/queries/sessions";
import { getThread } from "@/db/queries/threads";
import { messages, runs, serverInstances } from "@/db/schema";
import { messageText } from "@/lib/chat/request";
import { recoverThread } from "@/lib/runs/recovery";
import { settleRecoveries } from "@/lib/runs/recovery-registry";
import { runChatTurn } from "@/lib/runs/turn";
import { createAgents, setThreadAgent, systemOf } from "../support/agents";
import { createActor, sendTurn } from "../support/chat";
import { scriptedModel } from "../support/runs";

const usage = {
  inputTokens: { total: 100, noCache: 100, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/**
 * A source whose step calls handoff_to_agent (tools run once the model's finish arrives) and
 * whose stream then never closes, so the step never ends: its server "dies" there.
 */
function sourceThatDies() {
  return new MockLanguageModelV3({
    provider: "baton",
    modelId: "local",
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({
            type: "tool-call",
            toolCallId: `call-${randomUUID()}`,
            toolName: "handoff_to_agent",
            input: JSON.stringify({ agentId: "editor", handoff: { objective: "Polish it." } }),
          });
          controller.enqueue({
            type: "finish",
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
          });
          // Never closed: the tool runs, but the step never ends.
        },
      }),
    }),
  });
}

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("a server that dies after an accepted handoff", () => {
  it("is recovered as the target, in the target's session, from the brief", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await createAgents(actor, [{ id: "writer" }, { id: "editor" }]);
    const hello = scriptedModel(() => ({ text: "Hi." }));
    await sendTurn(actor, threadId, "hello", { languageModel: () => hello.model });
    await setThreadAgent(actor, threadId, "writer");

    const dying = sourceThatDies();
    const aborted = new AbortController();
    void runChatTurn({
      actor,
      request: {
        trigger: "submit-message",
        id: threadId,
        message: { id: randomUUID(), role: "user", parts: [{ type: "text", text: "hand on" }] },
      },
      signal: aborted.signal,
      deps: { languageModel: () => dying },
    }).then((response) => response.body?.cancel());

    // The handoff commits inside its tool call, before the step (and the server) ends.
    await until(
      async () => (await getThread({ userId: actor.id, threadId }))?.profile === "editor",
      "the handoff to commit",
    );
    const [run] = await getDb()
      .select()
      .from(runs)
      .where(and(eq(runs.threadId, threadId), eq(runs.status, "running")));
    if (!run) throw new Error("no running run");
    expect(run.handoffCount).toBe(1);
    // The turn started a background recovery of the thread; let it end first, or the recovery
    // below joins it (one per thread) and never runs with the target's model.
    await settleRecoveries();
    // Its server goes silent.
    const dead = `dead-${randomUUID()}`;
    const then = new Date(Date.now() - 60_000);
    await getDb()
      .insert(serverInstances)
      .values({ id: dead, host: "gone-host", pid: 999_999, startedAt: then, heartbeatAt: then });
    await getDb().update(runs).set({ instanceId: dead }).where(eq(runs.id, run.id));

    const target = scriptedModel((prompt) => ({
      text: systemOf(prompt).includes("# Handoff Brief") ? "Editor took over." : "Wrong agent.",
    }));
    await recoverThread(actor.id, threadId, {
      acceptedBefore: new Date(),
      languageModel: () => target.model,
    }).done;

    expect(target.prompts).toHaveLength(1);
    expect(systemOf(target.prompts[0] ?? [])).toContain("You are Editor");
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => [s.number, s.trigger, s.profile])).toEqual([
      [1, "initial", "default"],
      [2, "agent_handoff", "editor"],
    ]);
    const replies = await getDb()
      .select()
      .from(messages)
      .where(and(eq(messages.threadId, threadId), eq(messages.role, "assistant")));
    const resumed = replies.find((m) => messageText(m.parts).includes("Editor took over."));
    expect(resumed?.sessionId).toBe(sessions[1]?.id);
    expect(resumed?.agent).toBe("editor");
    // The dead run had stored nothing of its own to resume, so it is ended and the request is
    // answered afresh — by the thread's agent, which the commit had already made the target.
    const answered = await getDb()
      .select()
      .from(runs)
      .where(eq(runs.requestMessageId, run.requestMessageId ?? ""));
    expect(answered.map((r) => r.status).sort()).toEqual(["completed", "failed"]);
    expect(answered.find((r) => r.status === "completed")?.lastSessionId).toBe(sessions[1]?.id);
    aborted.abort();
  });
});
