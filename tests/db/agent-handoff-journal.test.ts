// The journal of a run that changes hands: who handled what, in order — the source's
// invocation with its tool calls, the handoff requested, the target's invocation created, the
// handoff accepted, the source transferred, the target started, its own calls, the end.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listRunEvents } from "@/db/queries/run-events";
import { runs } from "@/db/schema";
import { createAgents, setThreadAgent } from "../support/agents";
import { createActor, sendTurn } from "../support/chat";
import { scriptedModel } from "../support/runs";

describe("the journal of a handoff run", () => {
  it("lists the events in order, each under the agent whose stretch it was", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await createAgents(actor, [{ id: "writer" }, { id: "editor" }]);
    const script = scriptedModel((_prompt, call) => {
      const steps = [
        { text: "Hi." },
        { toolName: "write_file", input: { path: "draft.md", content: "draft" } },
        {
          toolName: "handoff_to_agent",
          input: { agentId: "nobody", handoff: { objective: "Polish draft.md" } },
        },
        {
          toolName: "handoff_to_agent",
          input: { agentId: "editor", handoff: { objective: "Polish draft.md" } },
        },
        { toolName: "read_file", input: { path: "draft.md" } },
        { text: "Polished." },
      ];
      return steps[call] ?? { text: "Done." };
    });
    const deps = { languageModel: () => script.model };
    await sendTurn(actor, threadId, "hello", deps);
    await setThreadAgent(actor, threadId, "writer");
    const turn = await sendTurn(actor, threadId, "draft it, then editor polishes", deps);

    const [run] = await getDb()
      .select()
      .from(runs)
      .where(eq(runs.requestMessageId, turn.messageId));
    if (!run) throw new Error("no run row");
    const journal = await listRunEvents({ userId: actor.id, threadId, runId: run.id });
    const events = journal?.events ?? [];
    const line = (e: (typeof events)[number]) => {
      const p = e.payload as { toolName?: string };
      return `${e.agent}:${e.type}${p.toolName ? `:${p.toolName}` : ""}`;
    };
    expect(events.map(line)).toEqual([
      "writer:agent_invocation_created",
      "writer:agent_invocation_started",
      "writer:context_assembled",
      "writer:tool_call:write_file",
      "writer:tool_result:write_file",
      "writer:tool_call:handoff_to_agent",
      "writer:agent_handoff_requested",
      "writer:agent_handoff_denied",
      "writer:tool_result:handoff_to_agent",
      "writer:tool_call:handoff_to_agent",
      "writer:agent_handoff_requested",
      "editor:agent_invocation_created",
      "writer:agent_handoff_accepted",
      "writer:tool_result:handoff_to_agent",
      "writer:agent_invocation_transferred",
      "editor:agent_invocation_started",
      "editor:context_assembled",
      "editor:tool_call:read_file",
      "editor:tool_result:read_file",
      "editor:agent_invocation_completed",
      "editor:run_completed",
    ]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    // One invocation per agent stretch; the denial says why.
    const invocations = new Set(events.map((e) => `${e.agent}/${e.invocationId}`));
    expect(invocations.size).toBe(2);
    const denied = events.find((e) => e.type === "agent_handoff_denied");
    expect(denied?.payload.reason).toMatch(/there is no agent "nobody"/);
    const transferred = events.find((e) => e.type === "agent_invocation_transferred");
    expect(transferred?.payload).toMatchObject({
      from: { id: "writer", name: "Writer" },
      to: { id: "editor", name: "Editor" },
      steps: 3,
    });
    const completed = events.find((e) => e.type === "agent_invocation_completed");
    expect(completed?.payload).toMatchObject({ status: "completed", steps: 2 });
    expect(Number(completed?.payload.outputTokens)).toBeGreaterThan(0);
  });
});
