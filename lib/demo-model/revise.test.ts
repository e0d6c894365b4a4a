// Reading an agent's handoff brief and revising a file's text, as pure functions; and a chain of
// two agents in the AI SDK's own multi-step loop, the brief built from the first one's call.
import { hasToolCall, type ModelMessage, stepCountIs, streamText, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { splitLines } from "@/core/workspace/text";
import { renderPlanBlock } from "@/lib/agents/tools/prompt-blocks";
import { agentBriefMarkdown as renderBrief } from "@/tests/support/agent-brief";
import { createMemoryWorkspace } from "@/tests/support/memory-workspace";
import { planItems } from "@/tests/support/offline-driver";
import { parseAgentBrief } from "./agent-brief";
import { createOfflineModel } from "./model";
import { reviseText } from "./revise-text";

const DRAFT = "this is a draft.  it needs work\n\n\n- first point\nthe end   \n";

describe("offline handoff: reading the brief and revising text", () => {
  it("parses every section of the brief, and stops where the next block begins", () => {
    const text = [
      "You are Baton.",
      "",
      renderBrief({
        from: "Agent Writer",
        title: "Polish the draft",
        reason: "The user asked for editor to take over.",
        objective: "polish draft.md\nkeep it short",
        contextSummary: "I wrote draft.md.",
        workspaceRefs: ["draft.md", "`notes/a.md`"],
        mustPreserve: ["the deadline is Friday"],
        completionCriteria: ["polish draft.md is done."],
        additional: { tone: "plain" },
      }),
      "",
      renderPlanBlock(planItems(["a"])),
    ].join("\n");
    expect(parseAgentBrief(text)).toEqual({
      from: "Agent Writer",
      title: "Polish the draft",
      reason: "The user asked for editor to take over.",
      objective: "polish draft.md\nkeep it short",
      contextSummary: "I wrote draft.md.",
      workspaceRefs: ["draft.md", "notes/a.md"],
      mustPreserve: ["the deadline is Friday"],
      completionCriteria: ["polish draft.md is done."],
      additional: ["tone: plain"],
    });
    expect(parseAgentBrief("You are Baton.")).toBeNull();
    expect(parseAgentBrief(renderBrief({ objective: " " }))).toBeNull();
  });

  it("a revision always differs from what it read, and is a function of it", () => {
    const once = reviseText("draft.md", splitLines(DRAFT));
    expect(reviseText("draft.md", splitLines(DRAFT))).toEqual(once);
    const twice = reviseText("draft.md", splitLines(once.text));
    expect(twice.text).not.toBe(once.text);
    expect(twice.text).toBe(once.text.replace("(pass 1)", "(pass 2)"));
    expect(twice.changes).toEqual(["marked it as revision 2"]);
    const code = ["# Code", "", "```", "const x = 1  ", "```"];
    expect(reviseText("c.md", code).text).toBe(
      "# Code\n\n```\nconst x = 1  \n```\n\n_Revised (pass 1)._\n",
    );
    expect(reviseText("empty.txt", []).text).toBe("# Empty\n\n_Revised (pass 1)._\n");
    expect(reviseText("a.md", ["see e.g. the docs.  then go"]).text).toContain(
      "See e.g. the docs. Then go.",
    );
  });
});

// The handoff_to_agent input as the tool's contract states it; strict, so no stray field passes.
const handoffInputSchema = z.strictObject({
  agentId: z.string().min(1),
  handoff: z.strictObject({
    objective: z.string().min(1),
    title: z.string().max(60).optional(),
    reason: z.string().optional(),
    contextSummary: z.string().optional(),
    workspaceRefs: z.array(z.string()).optional(),
    mustPreserve: z.array(z.string()).optional(),
    completionCriteria: z.array(z.string()).optional(),
  }),
  pendingTaskPolicy: z.literal("denyIfPending").optional(),
});
type HandoffInput = z.infer<typeof handoffInputSchema>;

describe("offline handoff in streamText's multi-step loop", () => {
  it("writer hands off to editor; editor reads the draft and polishes it", async () => {
    process.env.BATON_LOCAL_DELAY_MS = "0";
    const ws = createMemoryWorkspace();
    const model = createOfflineModel();
    const received: HandoffInput[] = [];
    const writerTools = {
      ...ws.tools,
      handoff_to_agent: tool({
        description: "Hand the next stage of this run to another agent.",
        inputSchema: handoffInputSchema,
        execute: async (input) => {
          received.push(input);
          return { ok: true, message: "Handoff accepted for Agent Editor. Your part is complete." };
        },
      }),
    };
    const wrote = streamText({
      model,
      tools: writerTools,
      messages: [{ role: "user", content: "write draft.md: a first draft. it is short" }],
      stopWhen: stepCountIs(10),
    });
    const history: ModelMessage[] = [
      { role: "user", content: "write draft.md: a first draft. it is short" },
      ...(await wrote.response).messages,
    ];
    const request = "remember the tone is plain. hand off to editor: polish draft.md";
    const writer = streamText({
      model,
      tools: writerTools,
      messages: [...history, { role: "user", content: request }],
      // The run never asks the source again once its handoff is accepted.
      stopWhen: [hasToolCall("handoff_to_agent"), stepCountIs(10)],
    });
    await writer.consumeStream();
    expect(received).toHaveLength(0);
    // The earliest command wins: `remember` comes first, so this message is answered as one.
    expect(await writer.text).toBe("Noted — I'll remember that the tone is plain.");

    const handoffTurn = streamText({
      model,
      tools: writerTools,
      messages: [
        ...history,
        { role: "user", content: "remember the tone is plain" },
        { role: "assistant", content: "Noted — I'll remember that the tone is plain." },
        { role: "user", content: "hand off to editor: polish draft.md" },
      ],
      stopWhen: [hasToolCall("handoff_to_agent"), stepCountIs(10)],
    });
    expect((await handoffTurn.steps).at(-1)?.toolResults[0]?.output).toMatchObject({ ok: true });
    const [sent] = received;
    if (!sent) throw new Error("no handoff");
    expect(sent.handoff).toMatchObject({
      objective: "polish draft.md",
      workspaceRefs: ["draft.md"],
      mustPreserve: ["the tone is plain"],
    });

    const editor = streamText({
      model,
      tools: ws.tools,
      system: renderBrief({ ...sent.handoff, from: "Agent Writer" }),
      messages: [{ role: "user", content: "hand off to editor: polish draft.md" }],
      stopWhen: stepCountIs(10),
    });
    const steps = await editor.steps;
    expect(steps.flatMap((s) => s.toolCalls.map((c) => c.toolName))).toEqual([
      "read_file",
      "write_file",
    ]);
    expect(ws.files.get("draft.md")).toBe(
      "# Draft\n\nA first draft. It is short.\n\n_Revised (pass 1)._\n",
    );
    expect(await editor.text).toMatch(/^Polished `draft\.md`: added the heading “# Draft”/);
  });
});
