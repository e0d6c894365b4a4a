// Agent-to-agent handoff inside one run: the source hands the next stage to the target with a
// brief, the run goes on as the target in a new session (its prompt, model and tools, never the
// source's), the brief is a handoff revision merged like any handoff, and the thread's agent
// becomes the target. Driven through the chat turn with scripted models.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listHandoffRevisions } from "@/db/queries/handoff-reads";
import { listSessions } from "@/db/queries/sessions";
import { getThread } from "@/db/queries/threads";
import { readFile } from "@/db/queries/workspace";
import { messages, runs } from "@/db/schema";
import { NOT_RUN_TRANSFERRED } from "@/lib/agents/transfer/guard";
import type { AgentHandoffPart } from "@/lib/chat/types";
import { readHandoff } from "@/lib/handoff-api/handoffs";
import { createAgents, setThreadAgent, systemOf, toolNamesOf } from "../support/agents";
import { createActor, replyText, type SsePart, sendTurn } from "../support/chat";
import { scriptedModel, storedMessages, toolOutputs } from "../support/runs";

const handoffPart = (parts: SsePart[]) =>
  parts.find((p) => p.type === "data-agent-handoff")?.data as unknown as
    | AgentHandoffPart
    | undefined;

const handOff = (agentId: string, handoff: Record<string, unknown>) => ({
  toolName: "handoff_to_agent",
  input: { agentId, handoff },
});

async function writerAndEditor() {
  const actor = await createActor();
  const threadId = randomUUID();
  await createAgents(actor, [
    { id: "writer", systemPrompt: "You are Writer. You draft texts." },
    {
      id: "editor",
      systemPrompt: "You are Editor. You polish drafts.",
      toolsAllow: ["read_file", "write_file", "edit_file"],
      delegation: { canHandoff: false },
    },
  ]);
  return { actor, threadId };
}

describe("agent handoff", () => {
  it("agent_handoff_continues_after_prior_commit: the target reads what the source wrote and finishes it", async () => {
    const { actor, threadId } = await writerAndEditor();
    const script = scriptedModel((_prompt, call) => {
      if (call === 0) return { text: "Ready." };
      const steps = [
        { toolName: "write_file", input: { path: "draft.md", content: "a rough draft" } },
        handOff("editor", {
          objective: "Polish draft.md",
          reason: "Editing is Editor's job.",
          workspaceRefs: ["draft.md"],
          completionCriteria: ["draft.md reads cleanly"],
        }),
        { toolName: "read_file", input: { path: "draft.md" } },
        { toolName: "write_file", input: { path: "draft.md", content: "A polished draft." } },
        { text: "Polished draft.md." },
      ];
      return steps[call - 1] ?? { text: "Done." };
    });
    const deps = { languageModel: () => script.model };
    await sendTurn(actor, threadId, "hello", deps);
    await setThreadAgent(actor, threadId, "writer");

    const turn = await sendTurn(actor, threadId, "write a draft, then have editor polish it", deps);

    // One reply: the divider's part, then the target's work, in the same stream.
    const part = handoffPart(turn.parts);
    expect(part?.from).toEqual({ id: "writer", name: "Writer" });
    expect(part?.to).toEqual({ id: "editor", name: "Editor" });
    expect(part?.reason).toBe("Editing is Editor's job.");
    expect(toolOutputs(turn.parts, "handoff_to_agent")[0]).toEqual({
      ok: true,
      message: "Handoff accepted for Agent Editor. Your part is complete.",
    });
    expect(replyText(turn.parts)).toContain("Polished draft.md.");
    const file = await readFile(getDb(), { userId: actor.id, threadId, path: "draft.md" });
    expect(file?.content).toBe("A polished draft.");

    // The target ran with its own prompt and tools, never the source's.
    const editorCalls = script.options.slice(3);
    for (const call of editorCalls) {
      const system = systemOf(call.prompt);
      expect(system).toContain("You are Editor.");
      expect(system).not.toContain("You are Writer.");
      expect(system).toContain("# Handoff Brief");
      expect(system).toContain("## Objective\nPolish draft.md");
      expect(toolNamesOf(call).sort()).toEqual(["edit_file", "read_file", "write_file"]);
    }
    expect(toolNamesOf(script.options[1])).toContain("handoff_to_agent");
    // It read the source's file before writing it.
    expect(JSON.stringify(script.prompts[4])).toContain("a rough draft");

    // A new session owned by the target, started by the brief stored as an agent_handoff revision.
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => [s.number, s.trigger, s.profile])).toEqual([
      [1, "initial", "default"],
      [2, "agent_handoff", "editor"],
    ]);
    const revisions = await listHandoffRevisions({ ownerId: actor.id, key: threadId });
    const brief = revisions.find((r) => r.kind === "agent_handoff");
    expect(brief?.brief?.objective).toBe("Polish draft.md");
    expect(brief?.markdown).toContain("# Handoff Brief");
    expect(brief?.artifact.files_modified).toEqual(["draft.md"]);
    expect(sessions[1]?.handoffRevisionId).toBe(brief?.id);
    // The handoff API reads it back as a first-class revision.
    const record = await readHandoff(
      { userId: actor.id, createdBy: `user:${actor.id}`, via: "session", scopes: ["read"] },
      { key: threadId },
    );
    expect(record.revision_kind).toBe("agent_handoff");
    expect(record.brief?.to).toEqual({ id: "editor", name: "Editor" });
    expect(record.markdown).toContain("## Objective\nPolish draft.md");

    // The thread's agent is now the target; every stored reply says who wrote it.
    expect((await getThread({ userId: actor.id, threadId }))?.profile).toBe("editor");
    const rows = await getDb()
      .select({ agent: messages.agent, sessionId: messages.sessionId })
      .from(messages)
      .where(and(eq(messages.threadId, threadId), eq(messages.role, "assistant")));
    expect(rows.map((r) => r.agent)).toEqual(["default", "writer", "editor"]);
    const [run] = await getDb()
      .select()
      .from(runs)
      .where(eq(runs.requestMessageId, turn.messageId));
    expect(run?.status).toBe("completed");
    expect(run?.handoffCount).toBe(1);

    // The next user turn runs as the target.
    await sendTurn(actor, threadId, "thanks", deps);
    expect(systemOf(script.prompts.at(-1) ?? [])).toContain("You are Editor.");
  });

  it("no further tool of the source runs: later calls of the handoff's step read 'not run'", async () => {
    const { actor, threadId } = await writerAndEditor();
    const script = scriptedModel((_prompt, call) => {
      if (call === 0) {
        return {
          calls: [
            handOff("editor", { objective: "Take over." }),
            { toolName: "write_file", input: { path: "late.md", content: "should not exist" } },
          ],
        };
      }
      return { text: "Editor here." };
    });
    await threadWithAgent(actor, threadId, "writer");
    const turn = await sendTurn(actor, threadId, "go", { languageModel: () => script.model });
    expect(toolOutputs(turn.parts, "write_file")[0]).toEqual({
      ok: false,
      error: NOT_RUN_TRANSFERRED,
    });
    expect(await readFile(getDb(), { userId: actor.id, threadId, path: "late.md" })).toBeNull();
    expect(replyText(turn.parts)).toContain("Editor here.");
    expect(script.prompts).toHaveLength(2);
  });

  it("handoff_target_profiles_do_not_require_finish_tool: a target with no tools answers and the run completes", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await createAgents(actor, [
      { id: "writer" },
      { id: "reviewer", toolsAllow: [], delegation: { canHandoff: false } },
    ]);
    const script = scriptedModel((_prompt, call) =>
      call === 0 ? handOff("reviewer", { objective: "Review the plan." }) : { text: "Looks good." },
    );
    await threadWithAgent(actor, threadId, "writer");
    const turn = await sendTurn(actor, threadId, "review this", {
      languageModel: () => script.model,
    });
    expect(replyText(turn.parts)).toContain("Looks good.");
    expect(toolNamesOf(script.options[1])).toEqual([]);
    const [run] = await getDb()
      .select()
      .from(runs)
      .where(eq(runs.requestMessageId, turn.messageId));
    expect(run?.status).toBe("completed");
    const stored = await storedMessages(actor, threadId);
    expect(stored.at(-1)?.metadata?.status).toBe("complete");
  });
});

/** A thread whose first turn is plain, then set to `profile`. */
async function threadWithAgent(
  actor: Awaited<ReturnType<typeof createActor>>,
  threadId: string,
  profile: string,
) {
  const hello = scriptedModel(() => ({ text: "Hi." }));
  await sendTurn(actor, threadId, "hello", { languageModel: () => hello.model });
  await setThreadAgent(actor, threadId, profile);
}
