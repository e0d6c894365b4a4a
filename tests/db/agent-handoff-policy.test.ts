// Who may hand off to whom: every failed check is its own recoverable tool error for the calling
// agent (the run goes on, no session is made, the thread keeps its agent), a handoff is denied
// while a call awaits approval, the run's depth is counted against the source's limit, and a
// pin carried from an earlier session reaches the target through the brief.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listHandoffRevisions } from "@/db/queries/handoff-reads";
import { listSessions } from "@/db/queries/sessions";
import { getThread } from "@/db/queries/threads";
import { resetThreadManually } from "@/lib/runs/reset-requests";
import { createAgents, setThreadAgent, systemOf, type TestAgent } from "../support/agents";
import { createActor, replyText, sendTurn } from "../support/chat";
import { scriptedModel, toolOutputs } from "../support/runs";

const saved = { ...process.env };

beforeEach(() => {
  // A configured model that cannot call tools, beside the offline model (still the default).
  process.env.BATON_MODEL = "baton/local";
  process.env.OPENAI_COMPATIBLE_BASE_URL = "http://127.0.0.1:9/v1";
  process.env.OPENAI_COMPATIBLE_MODELS = "plain";
  process.env.BATON_MODELS_WITHOUT_TOOLS = "compatible:plain";
});

afterEach(() => {
  process.env = { ...saved };
});

const handOff = (agentId: string, objective = "Take the next stage.") => ({
  toolName: "handoff_to_agent",
  input: { agentId, handoff: { objective } },
});

async function threadOn(profile: string, agents: TestAgent[]) {
  const actor = await createActor();
  const threadId = randomUUID();
  await createAgents(actor, agents);
  const hello = scriptedModel(() => ({ text: "Hi." }));
  await sendTurn(actor, threadId, "hello", { languageModel: () => hello.model });
  await setThreadAgent(actor, threadId, profile);
  return { actor, threadId };
}

const MATRIX: { check: string; agents: TestAgent[]; target: string; error: RegExp }[] = [
  {
    check: "the source may not hand off",
    agents: [{ id: "writer", delegation: { canHandoff: false } }, { id: "editor" }],
    target: "editor",
    error: /Writer may not hand off work/,
  },
  {
    check: "the run's depth is used up",
    agents: [{ id: "writer", delegation: { maxHandoffDepth: 0 } }, { id: "editor" }],
    target: "editor",
    error: /made 0 handoff\(s\), the most Writer allows \(0\)/,
  },
  {
    check: "the target does not exist",
    agents: [{ id: "writer" }],
    target: "ghost",
    error: /there is no agent "ghost"/,
  },
  {
    check: "the target is not callable",
    agents: [{ id: "writer" }, { id: "editor", delegation: { callable: false } }],
    target: "editor",
    error: /Editor cannot be called by other agents/,
  },
  {
    check: "the target takes no handoffs",
    agents: [{ id: "writer" }, { id: "editor", delegation: { allowAsHandoffTarget: false } }],
    target: "editor",
    error: /Editor does not take handoffs\./,
  },
  {
    check: "the caller is not allowed",
    agents: [{ id: "writer" }, { id: "editor", delegation: { allowedCallers: ["reviewer"] } }],
    target: "editor",
    error: /Editor does not take handoffs from Writer/,
  },
  {
    check: "the target's model is not configured",
    agents: [{ id: "writer" }, { id: "editor", model: "openai:gpt-4o" }],
    target: "editor",
    error: /runs on the model "openai:gpt-4o", which this server has not configured/,
  },
  {
    check: "the target's model cannot call tools",
    agents: [{ id: "writer" }, { id: "editor", model: "compatible:plain" }],
    target: "editor",
    error: /Editor is allowed tools, but its model "compatible:plain" cannot call tools/,
  },
  {
    check: "the brief does not fit the target's context",
    agents: [{ id: "writer" }, { id: "editor", systemPrompt: "Be brief. ".repeat(3_000) }],
    target: "editor",
    error: /do not fit under its context limit/,
  },
];

describe("handoff policy", () => {
  it.each(MATRIX)(
    "$check: its own recoverable error, no session",
    async ({ agents, target, error }) => {
      const { actor, threadId } = await threadOn("writer", agents);
      const script = scriptedModel((_prompt, call) =>
        call === 0 ? handOff(target) : { text: "I will carry on myself." },
      );
      const turn = await sendTurn(actor, threadId, "hand this on", {
        languageModel: () => script.model,
      });
      const [output] = toolOutputs(turn.parts, "handoff_to_agent") as {
        ok: boolean;
        error?: string;
      }[];
      expect(output?.ok).toBe(false);
      expect(output?.error).toMatch(error);
      // Recoverable: the same agent reads the error and goes on.
      expect(replyText(turn.parts)).toContain("I will carry on myself.");
      expect(systemOf(script.prompts[1] ?? [])).toContain("You are Writer");
      expect(await listSessions({ userId: actor.id, threadId })).toHaveLength(1);
      expect((await getThread({ userId: actor.id, threadId }))?.profile).toBe("writer");
      expect(turn.parts.some((p) => p.type === "data-agent-handoff")).toBe(false);
    },
  );

  it("gives every check its own text", () => {
    expect(new Set(MATRIX.map((m) => m.error.source)).size).toBe(MATRIX.length);
  });

  it("agent_handoff_denies_pending_delegated_tasks: no handoff while a call awaits approval", async () => {
    const { actor, threadId } = await threadOn("writer", [{ id: "writer" }, { id: "editor" }]);
    const script = scriptedModel((_prompt, call) =>
      call === 0
        ? {
            calls: [{ toolName: "delete_file", input: { path: "old.md" } }, handOff("editor")],
          }
        : { text: "unexpected" },
    );
    const turn = await sendTurn(actor, threadId, "clean up, then hand over", {
      languageModel: () => script.model,
    });
    const [output] = toolOutputs(turn.parts, "handoff_to_agent") as { error?: string }[];
    expect(output?.error).toMatch(/1 tool call\(s\) await the user's approval/);
    // The run waits for the answer as the same agent; nothing was handed on.
    expect(turn.parts.some((p) => p.type === "tool-approval-request")).toBe(true);
    expect(await listSessions({ userId: actor.id, threadId })).toHaveLength(1);
    expect((await getThread({ userId: actor.id, threadId }))?.profile).toBe("writer");
  });

  it("counts handoffs within the run: A → B → C → A with maxHandoffDepth 2 denies the third", async () => {
    const depth = { maxHandoffDepth: 2 };
    const { actor, threadId } = await threadOn("a", [
      { id: "a", delegation: depth },
      { id: "b", delegation: depth },
      { id: "c", delegation: depth },
    ]);
    const next: Record<string, string> = { "You are A": "b", "You are B": "c", "You are C": "a" };
    const denied = new Set<string>();
    const script = scriptedModel((prompt) => {
      const system = systemOf(prompt);
      const me = Object.keys(next).find((who) => system.includes(who)) ?? "";
      if (JSON.stringify(prompt).includes("Handoff not made")) {
        denied.add(me);
        return { text: `${me}: finishing here.` };
      }
      return handOff(next[me] ?? "a");
    });
    const turn = await sendTurn(actor, threadId, "relay", { languageModel: () => script.model });
    const outputs = toolOutputs(turn.parts, "handoff_to_agent") as {
      ok: boolean;
      error?: string;
    }[];
    expect(outputs.map((o) => o.ok)).toEqual([true, true, false]);
    expect(outputs[2]?.error).toMatch(/made 2 handoff\(s\), the most C allows \(2\)/);
    expect([...denied]).toEqual(["You are C"]);
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => s.profile)).toEqual(["default", "b", "c"]);
    expect((await getThread({ userId: actor.id, threadId }))?.profile).toBe("c");
  });

  it("carries a pin set in session 1 into the brief-derived handoff and the target's prompt", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await createAgents(actor, [{ id: "writer" }, { id: "editor" }]);
    // Session 1, on the offline model: the fact is pinned by the handoff of a manual reset.
    await sendTurn(actor, threadId, "remember the deploy key lives in Vault");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    await setThreadAgent(actor, threadId, "writer");
    const script = scriptedModel((_prompt, call) =>
      call === 0 ? handOff("editor", "Write the release notes.") : { text: "On it." },
    );
    await sendTurn(actor, threadId, "hand the notes to editor", {
      languageModel: () => script.model,
    });

    const revisions = await listHandoffRevisions({ ownerId: actor.id, key: threadId });
    const brief = revisions.find((r) => r.kind === "agent_handoff");
    expect(brief?.artifact.must_preserve).toContain("the deploy key lives in Vault");
    expect(brief?.brief?.mustPreserve).toContain("the deploy key lives in Vault");
    const target = systemOf(script.prompts[1] ?? []);
    expect(target).toContain("## Must Preserve\n- the deploy key lives in Vault");
    expect(target).toContain("You are Editor");
  });
});
