// The offline model through real chat turns with agent profiles: it hands off with
// `hand off to <agent>: <task>`, the run goes on as the target, which reads the brief the run
// rendered, polishes the file and keeps the brief's pins; `list agents` and a refusal in text.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { getThread } from "@/db/queries/threads";
import { readFile } from "@/db/queries/workspace";
import type { AgentHandoffPart } from "@/lib/chat/types";
import { createAgents, setThreadAgent } from "../support/agents";
import { createActor, replyText, type SsePart, sendTurn } from "../support/chat";
import { toolOutputs } from "../support/runs";

process.env.BATON_LOCAL_DELAY_MS = "0";

const handoffPart = (parts: SsePart[]) =>
  parts.find((p) => p.type === "data-agent-handoff")?.data as unknown as
    | AgentHandoffPart
    | undefined;

async function writerAndEditor() {
  const actor = await createActor();
  const threadId = randomUUID();
  await createAgents(actor, [
    { id: "writer", name: "Writer" },
    {
      id: "editor",
      name: "Editor",
      toolsAllow: ["read_file", "write_file", "edit_file"],
      delegation: { canHandoff: false },
    },
  ]);
  await sendTurn(actor, threadId, "hello");
  await setThreadAgent(actor, threadId, "writer");
  return { actor, threadId };
}

describe("offline model: agent handoff in a run", () => {
  it("writer hands off; editor reads the draft, polishes it and keeps the pinned fact", async () => {
    const { actor, threadId } = await writerAndEditor();
    await sendTurn(actor, threadId, "remember the tone is plain");
    await sendTurn(actor, threadId, "write draft.md: a first draft. it is short");

    const turn = await sendTurn(actor, threadId, "hand off to editor: polish draft.md");
    const part = handoffPart(turn.parts);
    expect(part?.from).toEqual({ id: "writer", name: "Writer" });
    expect(part?.to).toEqual({ id: "editor", name: "Editor" });
    expect(part?.handoff.brief).toMatchObject({
      objective: "polish draft.md",
      workspaceRefs: ["draft.md"],
      mustPreserve: ["the tone is plain"],
    });
    expect(replyText(turn.parts)).toContain(
      "Polished `draft.md`: added the heading “# Draft”, capitalized 2 sentences",
    );
    const file = await readFile(getDb(), { userId: actor.id, threadId, path: "draft.md" });
    expect(file?.content).toBe("# Draft\n\nA first draft. It is short.\n\n_Revised (pass 1)._\n");
    expect((await getThread({ userId: actor.id, threadId }))?.profile).toBe("editor");

    // A later turn in the editor's session is answered normally, and knows the pin.
    const known = await sendTurn(actor, threadId, "what do you know?");
    expect(replyText(known.parts)).toContain("**Facts**\n- the tone is plain");
  });

  it("lists the agents it may hand off to, and quotes a refusal", async () => {
    const { actor, threadId } = await writerAndEditor();
    const listed = await sendTurn(actor, threadId, "list agents");
    expect(replyText(listed.parts)).toContain("- Editor (editor)");
    expect(replyText(listed.parts)).not.toContain("(writer)");

    const refused = await sendTurn(actor, threadId, "hand off to nobody: polish draft.md");
    expect(handoffPart(refused.parts)).toBeUndefined();
    const [output] = toolOutputs(refused.parts, "handoff_to_agent") as { error: string }[];
    expect(output?.error).toMatch(/nobody/);
    expect(replyText(refused.parts)).toBe(
      `I could not hand off to nobody: ${output?.error.replace(/\.$/, "")}.`,
    );
    expect((await getThread({ userId: actor.id, threadId }))?.profile).toBe("writer");
  });
});
