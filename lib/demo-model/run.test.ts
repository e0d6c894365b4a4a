// The offline model in the AI SDK's own multi-step loop (streamText with tools), and the context
// arithmetic of the six-item demo: with the default 4096-token window and the 80% reset
// threshold, the run crosses the threshold in the middle, and a clean-slate session built from
// the plan block and the handoff carries the work to the end.
import {
  generateText,
  type ModelMessage,
  Output,
  type StepResult,
  stepCountIs,
  streamText,
  type ToolSet,
} from "ai";
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SYSTEM_PROMPT } from "@/lib/agents/profiles";
import { renderPlanBlock } from "@/lib/agents/tools/prompt-blocks";
import { DEFAULT_LOCAL_CONTEXT_WINDOW, OFFLINE_MODEL_ID } from "@/lib/ai/registry";
import { estimateMessageTokens, toolDefinitionTokens } from "@/lib/ai/token-count";
import { toolSetTokens } from "@/lib/ai/tool-definitions";
import { DEFAULT_RESET_THRESHOLD } from "@/lib/context/policy";
import { HANDOFF_INSTRUCTION } from "@/lib/context/prompts";
import { type HandoffArtifact, handoffArtifactSchema } from "@/lib/handoff/artifact";
import { renderCarriedOverBlock } from "@/lib/handoff/brief";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { mergeMechanicalFacts } from "@/lib/handoff/merge";
import {
  createMemoryWorkspace,
  type MemoryWorkspace,
  toolStepMessages,
} from "@/tests/support/memory-workspace";
import { createOfflineModel } from "./model";
import { renderWorkNote } from "./work-text";

const THRESHOLD = DEFAULT_RESET_THRESHOLD * DEFAULT_LOCAL_CONTEXT_WINDOW;
const CONTINUE = "Continue the task from the carried-over context.";
const SIX = [
  "research the market",
  "draft the outline",
  "write the intro",
  "collect examples",
  "review the draft",
  "publish the post",
];

let ws: MemoryWorkspace;
beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  ws = createMemoryWorkspace();
});

/**
 * The context after a step as the run loop measures it: the step's reported input plus what the
 * step added (its call and the tool's result) — exactly the next call's input.
 */
function contextAfter(step: StepResult<ToolSet>): number {
  const added = step.toolCalls.flatMap((call) => {
    const result = step.toolResults.find((r) => r.toolCallId === call.toolCallId);
    return toolStepMessages(call.toolCallId, call.toolName, call.input, {
      type: "json",
      value: (result?.output ?? null) as never,
    });
  });
  return (
    (step.usage.inputTokens ?? 0) +
    added.reduce((sum, m) => sum + estimateMessageTokens(m, OFFLINE_MODEL_ID), 0)
  );
}

const atThreshold = ({ steps }: { steps: StepResult<ToolSet>[] }) => {
  const last = steps.at(-1);
  return (
    last !== undefined && last.finishReason === "tool-calls" && contextAfter(last) >= THRESHOLD
  );
};

function systemPrompt(brief?: HandoffArtifact, session = 1): string {
  return [
    DEFAULT_SYSTEM_PROMPT,
    renderPlanBlock(ws.plan),
    brief
      ? renderCarriedOverBlock(renderHandoffMarkdown(brief), {
          revision: 1,
          sessionNumber: session,
        })
      : "",
  ]
    .filter(Boolean)
    .join("\n\n");
}

function writtenPaths(steps: StepResult<ToolSet>[]): string[] {
  return steps.flatMap((s) =>
    s.toolCalls.flatMap((c) =>
      c.toolName === "write_file" ? [(c.input as { path: string }).path] : [],
    ),
  );
}

describe("offline model in streamText's multi-step loop", () => {
  it("runs `plan:` and `work through the plan` to the end with in-memory tools", async () => {
    const model = createOfflineModel();
    const first = streamText({
      model,
      tools: ws.tools,
      system: systemPrompt(),
      messages: [{ role: "user", content: "plan: write the intro; add examples; proofread" }],
      stopWhen: stepCountIs(30),
    });
    expect(await first.text).toMatch(/^Plan set with 3 items:/);
    const history: ModelMessage[] = [
      { role: "user", content: "plan: write the intro; add examples; proofread" },
      ...(await first.response).messages,
      { role: "user", content: "work through the plan" },
    ];
    const run = streamText({
      model,
      tools: ws.tools,
      system: systemPrompt(),
      messages: history,
      stopWhen: stepCountIs(30),
    });
    const types = new Set<string>();
    for await (const part of run.fullStream) types.add(part.type);
    for (const type of [
      "tool-input-start",
      "tool-input-delta",
      "tool-input-end",
      "tool-call",
      "tool-result",
      "text-delta",
    ]) {
      expect(types).toContain(type);
    }
    const steps = await run.steps;
    expect(steps).toHaveLength(3 * 3 + 1);
    expect(steps.slice(0, -1).every((s) => s.finishReason === "tool-calls")).toBe(true);
    expect(await run.text).toBe(
      "I worked through the plan: all 3 items are done.\n\nFiles I wrote:\n- `work/p1.md`\n- `work/p2.md`\n- `work/p3.md`",
    );
    expect([...ws.files.keys()].sort()).toEqual(["work/p1.md", "work/p2.md", "work/p3.md"]);
    expect(ws.plan.map((i) => i.status)).toEqual(["done", "done", "done"]);
    // Reported input grows with every step and always includes the tool definitions.
    const inputs = steps.map((s) => s.usage.inputTokens ?? 0);
    expect(inputs).toEqual([...inputs].sort((a, b) => a - b));
    expect(inputs[0]).toBeGreaterThan(await toolSetTokens(ws.tools, OFFLINE_MODEL_ID));
  });

  it("asks for approval of a delete, and a denial ends in a reply saying the file was not deleted", async () => {
    ws.files.set("work/p1.md", "note");
    const model = createOfflineModel();
    const messages: ModelMessage[] = [{ role: "user", content: "delete work/p1.md" }];
    const asked = streamText({ model, tools: ws.tools, messages, stopWhen: stepCountIs(30) });
    const request = (await asked.content).find((p) => p.type === "tool-approval-request");
    if (request?.type !== "tool-approval-request") throw new Error("no approval request");
    const denied = streamText({
      model,
      tools: ws.tools,
      messages: [
        ...messages,
        ...(await asked.response).messages,
        {
          role: "tool",
          content: [
            { type: "tool-approval-response", approvalId: request.approvalId, approved: false },
          ],
        },
      ],
      stopWhen: stepCountIs(30),
    });
    expect(await denied.text).toBe(
      "The file `work/p1.md` was not deleted: the request was denied.",
    );
    expect(ws.files.has("work/p1.md")).toBe(true);
  });

  it("reports the same tool-definition cost the run loop computes from its tool set", async () => {
    let seen: number | undefined;
    const model = createOfflineModel();
    const spy = {
      ...model,
      specificationVersion: model.specificationVersion,
      provider: model.provider,
      modelId: model.modelId,
      supportedUrls: model.supportedUrls,
      doGenerate: (options: Parameters<typeof model.doGenerate>[0]) => {
        seen = toolDefinitionTokens(options.tools, OFFLINE_MODEL_ID);
        return model.doGenerate(options);
      },
      doStream: model.doStream.bind(model),
    };
    await generateText({ model: spy, tools: ws.tools, prompt: "hello" });
    expect(seen).toBe(await toolSetTokens(ws.tools, OFFLINE_MODEL_ID));
    expect(await toolSetTokens(ws.tools, OFFLINE_MODEL_ID, ["read_file"])).toBeLessThan(seen ?? 0);
  });
});

describe("six plan items in the default 4096-token window", () => {
  it("cross the reset threshold mid-run; clean-slate sessions finish the work", async () => {
    const model = createOfflineModel();
    const planMessage: ModelMessage = { role: "user", content: `plan: ${SIX.join("; ")}` };
    const planned = streamText({
      model,
      tools: ws.tools,
      system: systemPrompt(),
      messages: [planMessage],
      stopWhen: stepCountIs(5),
    });
    await planned.consumeStream();
    const request: ModelMessage = { role: "user", content: "work through the plan" };
    let messages: ModelMessage[] = [planMessage, ...(await planned.response).messages, request];
    let brief: HandoffArtifact | undefined;
    const sessions: {
      steps: StepResult<ToolSet>[];
      pendingAtEnd: string[];
      handoff?: HandoffArtifact;
    }[] = [];
    let text = "";
    for (let session = 1; session <= 4 && text === ""; session++) {
      const system = systemPrompt(brief, session - 1);
      const run = streamText({
        model,
        tools: ws.tools,
        system,
        messages,
        stopWhen: [stepCountIs(25), atThreshold],
      });
      const steps = await run.steps;
      const last = steps.at(-1);
      const record: (typeof sessions)[number] = {
        steps,
        pendingAtEnd: ws.plan.filter((i) => i.status === "pending").map((i) => i.id),
      };
      sessions.push(record);
      if (last?.finishReason === "stop") {
        text = await run.text;
        break;
      }
      // Reset: the handoff from this session's conversation, facts merged as the run loop does.
      const { output } = await generateText({
        model,
        system,
        messages: [
          ...messages,
          ...(await run.response).messages,
          { role: "user", content: HANDOFF_INSTRUCTION },
        ],
        output: Output.object({ schema: handoffArtifactSchema }),
      });
      brief = mergeMechanicalFacts({
        artifact: output,
        previous: brief ?? null,
        filesTouched: writtenPaths(steps),
        lastUserRequest: "work through the plan",
      });
      record.handoff = output;
      messages = [request, { role: "user", content: CONTINUE }];
    }

    expect(text).toContain("all 6 items are done");
    for (const id of ["p1", "p2", "p3", "p4", "p5", "p6"])
      expect(text).toContain(`- \`work/${id}.md\``);
    expect(ws.plan.every((i) => i.status === "done")).toBe(true);
    expect(ws.files.size).toBe(6);

    // Session 1 crosses the threshold with work done and work still pending.
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    const one = sessions[0];
    if (!one?.handoff) throw new Error("session 1 did not reset");
    const firstInput = one.steps[0]?.usage.inputTokens ?? 0;
    expect(firstInput).toBeLessThan(THRESHOLD / 2);
    expect(writtenPaths(one.steps).length).toBeGreaterThanOrEqual(1);
    expect(one.pendingAtEnd.length).toBeGreaterThanOrEqual(1);
    // Its handoff: exactly the files it wrote, exactly the items still pending.
    expect(one.handoff.files_modified).toEqual(writtenPaths(one.steps));
    expect(one.handoff.remaining_tasks.map((t) => t.id)).toEqual(one.pendingAtEnd);

    for (const [i, session] of sessions.entries()) {
      const inputs = session.steps.map((s) => s.usage.inputTokens ?? 0);
      expect(inputs.every((n) => n < THRESHOLD)).toBe(true);
      if (i > 0) {
        // A new session starts well below the threshold and does not reach it within 2 steps.
        const early = session.steps.slice(0, 2).map(contextAfter);
        expect(early.every((n) => n < THRESHOLD)).toBe(true);
      }
    }
    // One run: all sessions' steps fit the default step limit of 25.
    expect(sessions.reduce((n, s) => n + s.steps.length, 0)).toBeLessThanOrEqual(25);
  });

  it("makes each note write add 500+ tokens of tool input to the context", () => {
    for (const [i, task] of SIX.entries()) {
      const id = `p${i + 1}`;
      const input = { path: `work/${id}.md`, content: renderWorkNote(id, task) };
      const added = toolStepMessages(`c${i}`, "write_file", input, {
        type: "json",
        value: {
          ok: true,
          path: input.path,
          version: 1,
          bytes: input.content.length,
          created: true,
        },
      }).reduce((n, m) => n + estimateMessageTokens(m, OFFLINE_MODEL_ID), 0);
      expect(added).toBeGreaterThanOrEqual(500);
      expect(added).toBeLessThan(800);
    }
  });
});
