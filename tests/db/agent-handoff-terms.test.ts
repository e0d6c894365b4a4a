// What a model is told about handing off: the default agent's prompt describes it from where
// that agent stands, and no prompt, tool description or tool result of a recorded run holds any
// of the run's own row ids — runs, sessions, threads, handoffs, revisions, journal invocations.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { handoffRevisions, handoffs, runs, sessions } from "@/db/schema";
import { createAgents, setThreadAgent, systemOf, toolNamesOf } from "../support/agents";
import { createActor, sendTurn } from "../support/chat";
import { scriptedModel } from "../support/runs";

const RUNTIME_WORDS = /\b(run|runs|session|sessions|invocation|database|storage|row)\b/i;

describe("what models are told about handoffs", () => {
  it("default_agent_system_prompt_describes_handoff_from_current_agent_view", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await createAgents(actor, [{ id: "editor", name: "Editor" }]);
    const script = scriptedModel(() => ({ text: "Hello." }));
    await sendTurn(actor, threadId, "hi", { languageModel: () => script.model });

    const [call] = script.options;
    if (!call) throw new Error("the model was not called");
    const system = systemOf(call.prompt);
    expect(system).toContain("Here you are the agent Default (default).");
    expect(system).toContain("call handoff_to_agent with its id and a brief");
    expect(system).toContain("list_agents shows who can take it");
    expect(system).toContain("you call no further tools, and nothing comes back to you");
    expect(toolNamesOf(call)).toEqual(expect.arrayContaining(["handoff_to_agent", "list_agents"]));
  });

  it("offers no handoff tools, and says nothing of handing off, while there is nobody to hand to", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const script = scriptedModel(() => ({ text: "Hello." }));
    await sendTurn(actor, threadId, "hi", { languageModel: () => script.model });
    const [call] = script.options;
    if (!call) throw new Error("the model was not called");
    expect(toolNamesOf(call)).not.toContain("handoff_to_agent");
    expect(systemOf(call.prompt)).not.toContain("handoff_to_agent");
  });

  it("agent_tool_specs_keep_runtime_terms_out_of_model_descriptions", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await createAgents(actor, [{ id: "writer" }, { id: "editor" }]);
    const script = scriptedModel((_prompt, call) => {
      const steps = [
        { text: "Hi." },
        { toolName: "list_agents", input: { purpose: "handoff" } },
        { toolName: "write_file", input: { path: "notes.md", content: "notes" } },
        {
          toolName: "handoff_to_agent",
          input: { agentId: "nobody", handoff: { objective: "Finish the notes." } },
        },
        {
          toolName: "handoff_to_agent",
          input: {
            agentId: "editor",
            handoff: { objective: "Finish the notes.", workspaceRefs: ["notes.md"] },
          },
        },
        { toolName: "read_file", input: { path: "notes.md" } },
        { text: "Finished." },
      ];
      return steps[call] ?? { text: "Done." };
    });
    const deps = { languageModel: () => script.model };
    await sendTurn(actor, threadId, "hello", deps);
    await setThreadAgent(actor, threadId, "writer");
    const turn = await sendTurn(actor, threadId, "write notes and hand them to editor", deps);

    // Every id the run's rows have.
    const db = getDb();
    const ids = new Set<string>([threadId, actor.id]);
    for (const r of await db.select().from(runs).where(eq(runs.threadId, threadId))) {
      ids.add(r.id);
    }
    for (const s of await db.select().from(sessions).where(eq(sessions.threadId, threadId))) {
      ids.add(s.id);
    }
    for (const h of await db.select().from(handoffs).where(eq(handoffs.threadId, threadId))) {
      ids.add(h.id);
      ids.add(h.contentId);
    }
    for (const r of await db
      .select()
      .from(handoffRevisions)
      .where(eq(handoffRevisions.threadId, threadId))) {
      ids.add(r.id);
      ids.add(r.contentId);
    }
    expect(ids.size).toBeGreaterThan(6);

    // Everything the models were sent (prompts, tool descriptions and schemas) and every tool
    // result of the run, the handoff's own included (its source never reads it back).
    expect(script.options.length).toBeGreaterThanOrEqual(6);
    const sent = JSON.stringify(script.options.map((o) => ({ prompt: o.prompt, tools: o.tools })));
    const results = JSON.stringify(
      turn.parts
        .filter((p) => p.type === "tool-output-available")
        .map((p) => (p as { output?: unknown }).output),
    );
    for (const id of ids) {
      expect(sent).not.toContain(id);
      expect(results).not.toContain(id);
    }
    expect(results).toContain("Handoff accepted for Agent Editor");
    expect(sent).toContain('there is no agent \\"nobody\\"');

    for (const call of script.options) {
      for (const tool of call.tools ?? []) {
        if (tool.type !== "function") continue;
        expect(`${tool.name}: ${tool.description}`).not.toMatch(RUNTIME_WORDS);
        expect(JSON.stringify(tool.inputSchema)).not.toMatch(RUNTIME_WORDS);
      }
    }
  });
});
