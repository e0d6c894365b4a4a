// The offline model's tool vocabulary, one model call per step as the run loop makes them: every
// test feeds the model's tool calls and the tools' results back into the prompt.
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { renderPlanBlock } from "@/lib/agents/tools/prompt-blocks";
import { HANDOFF_INSTRUCTION } from "@/lib/context/prompts";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { renderCarriedOverBlock } from "@/lib/handoff/brief";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import type { PlanItem } from "@/lib/workspace/plan-items";
import {
  createMemoryWorkspace,
  type MemoryWorkspace,
  type PromptMessage,
  toolStepMessages,
} from "@/tests/support/memory-workspace";
import { createOfflineModel } from "./offline-model";
import { renderWorkNote, WORK_NOTE_WORDS } from "./offline-work-text";
import { estimatePromptTokens, type ToolDefinition, toolDefinitionTokens } from "./tokens";

const SYSTEM = "You are Baton, a helpful assistant for long-running work.";
const CONTINUE = "Continue the task from the carried-over context.";
const SIX = [
  "research the market",
  "draft the outline",
  "write the intro",
  "collect examples",
  "review the draft",
  "publish the post",
];

let definitions: ToolDefinition[];
let ws: MemoryWorkspace;

beforeAll(async () => {
  definitions = await createMemoryWorkspace().definitions();
});
beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  ws = createMemoryWorkspace();
});

const user = (text: string): PromptMessage => ({ role: "user", content: [{ type: "text", text }] });
const system = (...blocks: string[]): PromptMessage => ({
  role: "system",
  content: [SYSTEM, ...blocks].filter(Boolean).join("\n\n"),
});
const planItems = (tasks: string[], status: (i: number) => PlanItem["status"] = () => "pending") =>
  tasks.map((task, i) => ({ id: `p${i + 1}`, task, status: status(i) }));

type Step =
  | { kind: "call"; id: string; toolName: string; input: Record<string, unknown> }
  | { kind: "text"; text: string };

async function next(
  prompt: LanguageModelV3Prompt,
  extra: Partial<LanguageModelV3CallOptions> = {},
): Promise<Step> {
  const result = await createOfflineModel().doGenerate({ prompt, tools: definitions, ...extra });
  const part = result.content[0];
  if (part?.type === "tool-call") {
    expect(result.finishReason.unified).toBe("tool-calls");
    return {
      kind: "call",
      id: part.toolCallId,
      toolName: part.toolName,
      input: JSON.parse(part.input),
    };
  }
  if (part?.type === "text") return { kind: "text", text: part.text };
  throw new Error("no content");
}

function json(value: unknown): LanguageModelV3ToolResultOutput {
  return { type: "json", value: value as never };
}

/** Runs step after step against the in-memory workspace until the model answers in text. */
async function drive(prompt: LanguageModelV3Prompt, limit = 40) {
  const steps: Step[] = [];
  for (let i = 0; i < limit; i++) {
    const step = await next(prompt);
    steps.push(step);
    if (step.kind === "text") return { steps, text: step.text, prompt };
    prompt.push(
      ...toolStepMessages(
        step.id,
        step.toolName,
        step.input,
        json(ws.execute(step.toolName, step.input)),
      ),
    );
  }
  throw new Error("no text reply within the step limit");
}

const calls = (steps: Step[]) => steps.flatMap((s) => (s.kind === "call" ? [s] : []));
const statusOf = (input: Record<string, unknown>) =>
  ((input.items ?? []) as PlanItem[]).map((i) => `${i.id}:${i.status}`).join(" ");

describe("offline tools: vocabulary", () => {
  it.each([
    ["write notes/a.md: hello world", "write_file", { path: "notes/a.md", content: "hello world" }],
    [
      "Please WRITE `docs/x.md`:\nline one\nline two",
      "write_file",
      { path: "docs/x.md", content: "line one\nline two" },
    ],
    ["read notes/a.md", "read_file", { path: "notes/a.md" }],
    [
      "could you read big.txt lines 10-20?",
      "read_file",
      { path: "big.txt", startLine: 10, endLine: 20 },
    ],
    ["delete work/p1.md.", "delete_file", { path: "work/p1.md" }],
    ["list files", "list_files", {}],
    ['call list_files {"prefix": "work/"} please', "list_files", { prefix: "work/" }],
  ])("%s → %s", async (text, toolName, input) => {
    const step = await next([system(), user(text)]);
    expect(step).toMatchObject({ kind: "call", toolName, input });
    if (step.kind === "call") expect(step.input).toEqual(input);
  });

  it("plan: a; b; c → update_plan with p1, p2, p3 pending", async () => {
    const step = await next([system(), user("plan: buy flour; bake bread; slice it.")]);
    expect(step).toEqual({
      kind: "call",
      id: expect.any(String),
      toolName: "update_plan",
      input: { items: planItems(["buy flour", "bake bread", "slice it"]) },
    });
  });

  it("a new plan replaces the old one, its ids continuing after the highest shown", async () => {
    const block = renderPlanBlock(planItems(["a", "b"], () => "done"));
    const step = await next([system(block), user("plan: c; d")]);
    expect(step).toMatchObject({
      toolName: "update_plan",
      input: {
        items: [
          { id: "p3", task: "c", status: "pending" },
          { id: "p4", task: "d", status: "pending" },
        ],
      },
    });
  });

  it("work through the plan → marks the first pending item in progress", async () => {
    const block = renderPlanBlock(planItems(["a", "b"]));
    const step = await next([system(block), user("Now work through the plan")]);
    expect(step).toMatchObject({ toolName: "update_plan" });
    if (step.kind === "call") expect(statusOf(step.input)).toBe("p1:in_progress p2:pending");
  });

  it("answers each command in text after the tool's result", async () => {
    ws.files.set("notes/a.md", "first line\nsecond line\n");
    const wrote = await drive([system(), user("write notes/b.md: two words")]);
    expect(wrote.text).toBe("Wrote `notes/b.md` (2 words, version 1).");
    const read = await drive([system(), user("read notes/a.md")]);
    expect(read.text).toBe(
      "`notes/a.md` has 2 lines; I read all of it. It begins “first line second line”.",
    );
    const listed = await drive([system(), user("list files")]);
    expect(listed.text).toBe(
      "The workspace has 2 files:\n- `notes/a.md` (23 bytes)\n- `notes/b.md` (9 bytes)",
    );
    const planned = await drive([system(), user("plan: one; two")]);
    expect(planned.text).toMatch(/^Plan set with 2 items:\n- p1: one\n- p2: two\n/);
    expect(ws.plan.map((i) => i.id)).toEqual(["p1", "p2"]);
  });

  it("says what went wrong when a tool reports an error", async () => {
    const read = await drive([system(), user("read missing.md")]);
    expect(read.text).toBe('I couldn\'t read `missing.md`: "missing.md" does not exist.');
  });

  it("calls only tools the call offers, and none when tool choice is none", async () => {
    const noTools = await createOfflineModel().doGenerate({
      prompt: [system(), user("write a.md: x")],
    });
    expect(noTools.content).toEqual([
      { type: "text", text: expect.stringMatching(/no `write_file` tool/) },
    ]);
    expect(noTools.warnings).toEqual([]);
    const none = await next([system(), user("list files")], { toolChoice: { type: "none" } });
    expect(none).toEqual({ kind: "text", text: expect.stringMatching(/no `list_files` tool/) });
    const unknown = await next([system(), user('call search_web {"q": "x"}')]);
    expect(unknown).toEqual({ kind: "text", text: expect.stringMatching(/no `search_web` tool/) });
  });

  it("leaves ordinary messages and the knowledge vocabulary alone", async () => {
    expect(await next([system(), user("read the docs and tell me what they say")])).toMatchObject({
      kind: "text",
      text: expect.stringMatching(/^You said:/),
    });
    expect(await next([system(), user("Let's plan the launch")])).toMatchObject({ kind: "text" });
    // The earliest command wins: this is a todo whose text mentions a write.
    expect(await next([system(), user("todo write a.md: later")])).toEqual({
      kind: "text",
      text: "Added task t1: write a.md: later.",
    });
  });
});

describe("offline tools: work through the plan", () => {
  it("in progress → write work/<id>.md → done, item by item, then lists the files", async () => {
    const prompt = [
      system(renderPlanBlock(planItems(SIX.slice(0, 3)))),
      user("work through the plan"),
    ];
    const { steps, text } = await drive(prompt);
    const made = calls(steps).map((s) =>
      s.toolName === "update_plan" ? `plan ${statusOf(s.input)}` : `${s.toolName} ${s.input.path}`,
    );
    expect(made).toEqual([
      "plan p1:in_progress p2:pending p3:pending",
      "write_file work/p1.md",
      "plan p1:done p2:pending p3:pending",
      "plan p1:done p2:in_progress p3:pending",
      "write_file work/p2.md",
      "plan p1:done p2:done p3:pending",
      "plan p1:done p2:done p3:in_progress",
      "write_file work/p3.md",
      "plan p1:done p2:done p3:done",
    ]);
    expect(text).toBe(
      "I worked through the plan: all 3 items are done.\n\nFiles I wrote:\n- `work/p1.md`\n- `work/p2.md`\n- `work/p3.md`",
    );
    expect(ws.files.get("work/p2.md")).toBe(renderWorkNote("p2", SIX[1] ?? ""));
    expect(ws.plan.every((i) => i.status === "done")).toBe(true);
  });

  it("writes ~400 words per note, derived from the item", () => {
    const note = renderWorkNote("p4", "collect examples");
    const words = note.split(/\s+/).filter(Boolean).length;
    expect(words).toBeGreaterThanOrEqual(WORK_NOTE_WORDS);
    expect(words).toBeLessThan(WORK_NOTE_WORDS + 40);
    expect(note.startsWith("# p4: collect examples\n")).toBe(true);
    expect(note).toContain("examples");
    expect(renderWorkNote("p5", "review the draft")).not.toBe(note);
  });

  it("continues from a clean-slate prompt: p1–p3 done, p4–p6 pending → p4", async () => {
    const plan = planItems(SIX, (i) => (i < 3 ? "done" : "pending"));
    const brief = handoffArtifactSchema.parse({
      goal: "work through the plan",
      state_summary: "Three items done.",
      completed_work: ["p1: research the market", "p2: draft the outline", "p3: write the intro"],
      remaining_tasks: plan.slice(3).map(({ id, task }) => ({ id, task })),
      files_modified: ["work/p1.md", "work/p2.md", "work/p3.md"],
    });
    const carried = renderCarriedOverBlock(renderHandoffMarkdown(brief), {
      revision: 1,
      sessionNumber: 1,
    });
    const prompt = [
      system(renderPlanBlock(plan), carried),
      user("work through the plan"),
      user(CONTINUE),
    ];
    const first = await next(prompt);
    expect(first).toMatchObject({ toolName: "update_plan" });
    if (first.kind === "call") {
      expect(statusOf(first.input)).toBe(
        "p1:done p2:done p3:done p4:in_progress p5:pending p6:pending",
      );
    }
    const { steps, text } = await drive(prompt);
    expect(
      calls(steps)
        .filter((s) => s.toolName === "write_file")
        .map((s) => s.input.path),
    ).toEqual(["work/p4.md", "work/p5.md", "work/p6.md"]);
    // The files of session 1 come from the carried brief, those of this session from its calls.
    expect(text).toContain(
      [
        "- `work/p1.md`",
        "- `work/p2.md`",
        "- `work/p3.md`",
        "- `work/p4.md`",
        "- `work/p5.md`",
        "- `work/p6.md`",
      ].join("\n"),
    );
  });

  it("after a reset in the middle of an item, marks it done when the brief lists its note", async () => {
    const plan = planItems(SIX.slice(0, 2), (i) => (i === 0 ? "done" : "in_progress"));
    const carried = (files: string[]) =>
      renderCarriedOverBlock(
        renderHandoffMarkdown(
          handoffArtifactSchema.parse({ goal: "g", state_summary: "s", files_modified: files }),
        ),
        { revision: 1, sessionNumber: 1 },
      );
    const listed = await drive([
      system(renderPlanBlock(plan), carried(["work/p1.md", "work/p2.md"])),
      user("work through the plan"),
      user(CONTINUE),
    ]);
    expect(calls(listed.steps).map((s) => `${s.toolName} ${statusOf(s.input)}`)).toEqual([
      "update_plan p1:done p2:done",
    ]);
    // Not listed: the note may never have been written, so it is written (again) first.
    const unlisted = await drive([
      system(renderPlanBlock(plan), carried(["work/p1.md"])),
      user("work through the plan"),
      user(CONTINUE),
    ]);
    expect(calls(unlisted.steps).map((s) => s.toolName)).toEqual(["write_file", "update_plan"]);
    expect(calls(unlisted.steps)[0]?.input.path).toBe("work/p2.md");
  });

  it("without a block, reads the plan from its own update_plan calls earlier in the session", async () => {
    const prompt: LanguageModelV3Prompt = [system(), user("plan: a; b")];
    await drive(prompt);
    prompt.push(user("work through the plan"));
    const { text } = await drive(prompt);
    expect(text).toMatch(/all 2 items are done/);
  });

  it("says so when there is no plan, and stops at a failed step", async () => {
    expect((await drive([system(), user("work through the plan")])).text).toMatch(
      /no plan to work through/,
    );
    const prompt = [system(renderPlanBlock(planItems(["a"]))), user("work through the plan")];
    const start = await next(prompt);
    if (start.kind !== "call") throw new Error("expected a call");
    prompt.push(
      ...toolStepMessages(
        start.id,
        start.toolName,
        start.input,
        json(ws.execute(start.toolName, start.input)),
      ),
    );
    const write = await next(prompt);
    if (write.kind !== "call") throw new Error("expected a call");
    prompt.push(
      ...toolStepMessages(
        write.id,
        write.toolName,
        write.input,
        json({ ok: false, error: "The workspace holds at most 1000 files." }),
      ),
    );
    expect(await next(prompt)).toEqual({
      kind: "text",
      text: "I stopped working through the plan: write_file on `work/p1.md` failed — The workspace holds at most 1000 files. The plan shows how far I got.",
    });
  });
});

describe("offline tools: approvals and large files", () => {
  it("a denied delete is answered in text: the file was not deleted", async () => {
    const prompt = [system(), user("delete work/p1.md")];
    const step = await next(prompt);
    if (step.kind !== "call") throw new Error("expected a call");
    prompt.push(
      ...toolStepMessages(step.id, step.toolName, step.input, { type: "execution-denied" }),
    );
    const reply = await next(prompt);
    expect(reply).toEqual({
      kind: "text",
      text: "The file `work/p1.md` was not deleted: the request was denied.",
    });
    // A tool error (e.g. an approval the runtime could not honour) is reported the same way.
    prompt.splice(-1, 1, {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: step.id,
          toolName: "delete_file",
          output: { type: "error-text", value: "approval expired" },
        },
      ],
    });
    expect(await next(prompt)).toEqual({
      kind: "text",
      text: "I couldn't delete `work/p1.md`: approval expired. The file was not deleted.",
    });
  });

  it("a preview of a large file is followed by a ranged read of the next lines, then a reply", async () => {
    const lines = Array.from(
      { length: 4000 },
      (_, i) => `line ${i + 1}: ${"lorem ipsum dolor sit amet ".repeat(2).trim()}`,
    );
    ws.files.set("big.txt", `${lines.join("\n")}\n`);
    const { steps, text } = await drive([system(), user("read big.txt")]);
    const reads = calls(steps);
    expect(reads.map((s) => s.input)).toEqual([
      { path: "big.txt" },
      { path: "big.txt", startLine: expect.any(Number), endLine: expect.any(Number) },
    ]);
    const preview = ws.execute("read_file", { path: "big.txt" }) as { endLine: number };
    const ranged = reads[1]?.input as { startLine: number; endLine: number };
    expect(ranged.startLine).toBe(preview.endLine + 1);
    expect(ranged.endLine - ranged.startLine + 1).toBe(Math.min(50, preview.endLine));
    expect(text).toContain(
      `\`big.txt\` has 4000 lines. Lines 1–${preview.endLine} came as a preview`,
    );
    expect(text).toContain(`begin “line ${ranged.startLine}:`);
  });
});

describe("offline tools: determinism, streams and usage", () => {
  const prompt = () => [
    system(renderPlanBlock(planItems(SIX.slice(0, 2)))),
    user("work through the plan"),
  ];

  it("is a pure function of the prompt: same prompt, same call and id; another prompt, another id", async () => {
    const a = await next(prompt());
    const b = await next(structuredClone(prompt()));
    expect(a).toEqual(b);
    const other = await next([system(), user("list files")]);
    expect(other.kind === "call" && a.kind === "call" && other.id !== a.id).toBe(true);
  });

  it("streams a tool call as providers do: input start, deltas, end, the call, finish tool-calls", async () => {
    const p = prompt();
    const first = await next(p);
    if (first.kind !== "call") throw new Error("expected a call");
    p.push(
      ...toolStepMessages(
        first.id,
        first.toolName,
        first.input,
        json(ws.execute(first.toolName, first.input)),
      ),
    );
    const { stream } = await createOfflineModel().doStream({ prompt: p, tools: definitions });
    const parts: LanguageModelV3StreamPart[] = [];
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
    const types = parts.map((x) => x.type);
    expect(types.slice(0, 3)).toEqual(["stream-start", "response-metadata", "tool-input-start"]);
    expect(types.slice(-3)).toEqual(["tool-input-end", "tool-call", "finish"]);
    expect(types.filter((t) => t === "tool-input-delta").length).toBeGreaterThan(10);
    const deltas = parts.flatMap((x) => (x.type === "tool-input-delta" ? [x.delta] : [])).join("");
    const call = parts.find((x) => x.type === "tool-call");
    expect(call).toMatchObject({ toolName: "write_file" });
    expect(call?.type === "tool-call" && call.input).toBe(deltas);
    expect(JSON.parse(deltas)).toEqual({
      path: "work/p1.md",
      content: renderWorkNote("p1", SIX[0] ?? ""),
    });
    const finish = parts.at(-1);
    if (finish?.type !== "finish") throw new Error("no finish");
    expect(finish.finishReason).toEqual({ unified: "tool-calls", raw: "tool_calls" });
    expect(finish.usage.inputTokens.total).toBe(
      estimatePromptTokens(p, "baton/local") + toolDefinitionTokens(definitions, "baton/local"),
    );
    expect(finish.usage.outputTokens.total).toBeGreaterThan(450);
  });

  it("counts the tool definitions as input, and nothing for a call without tools", async () => {
    const p = [system(), user("hello")];
    const withTools = await createOfflineModel().doGenerate({ prompt: p, tools: definitions });
    const without = await createOfflineModel().doGenerate({ prompt: p });
    const toolTokens = toolDefinitionTokens(definitions, "baton/local");
    expect(toolTokens).toBeGreaterThan(200);
    expect(withTools.usage.inputTokens.total).toBe(
      (without.usage.inputTokens.total ?? 0) + toolTokens,
    );
  });
});

describe("offline tools: the handoff it writes", () => {
  it("carries the plan and the files its prompt shows, merged over the carried brief", async () => {
    const brief = handoffArtifactSchema.parse({
      goal: "ship the post",
      state_summary: "Session 1 wrote p1.",
      completed_work: ["p1: research the market"],
      remaining_tasks: [
        { id: "p2", task: "draft the outline" },
        { id: "p3", task: "write the intro" },
        { id: "t1", task: "email the editor" },
      ],
      in_progress: ["Last user request: work through the plan"],
      files_modified: ["work/p1.md"],
    });
    const carried = renderCarriedOverBlock(renderHandoffMarkdown(brief), {
      revision: 1,
      sessionNumber: 1,
    });
    const plan = planItems(SIX.slice(0, 3), (i) => (i === 0 ? "done" : "pending"));
    const prompt = [
      system(renderPlanBlock(plan), carried),
      user("work through the plan"),
      user(CONTINUE),
    ];
    for (let i = 0; i < 4; i++) {
      const step = await next(prompt);
      if (step.kind !== "call") throw new Error("expected a call");
      prompt.push(
        ...toolStepMessages(
          step.id,
          step.toolName,
          step.input,
          json(ws.execute(step.toolName, step.input)),
        ),
      );
    }
    // p2 done, p3 in progress (its note not yet written).
    prompt.push(user(HANDOFF_INSTRUCTION));
    const result = await createOfflineModel().doGenerate({
      prompt,
      responseFormat: { type: "json" },
    });
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    const artifact = handoffArtifactSchema.parse(JSON.parse(text));
    expect(artifact.remaining_tasks).toEqual([{ id: "t1", task: "email the editor" }]);
    expect(artifact.in_progress).toEqual(["p3: write the intro"]);
    expect(artifact.completed_work).toEqual(["p1: research the market", "p2: draft the outline"]);
    expect(artifact.files_modified).toEqual(["work/p1.md", "work/p2.md"]);
    expect(artifact.next_step).toBe("p3: write the intro");
    expect(artifact.last_completed_step).toBe("Updated the plan");
    expect(artifact.goal).toBe("ship the post");
  });
});
