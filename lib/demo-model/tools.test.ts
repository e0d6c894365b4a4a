// The offline model's tool vocabulary, one model call per step as the run loop makes them: every
// test feeds the model's tool calls and the tools' results back into the prompt.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { beforeEach, describe, expect, it } from "vitest";
import { renderPlanBlock } from "@/lib/agents/tools/prompt-blocks";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { renderCarriedOverBlock } from "@/lib/handoff/brief";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import {
  CONTINUE,
  calls,
  createOfflineDriver,
  json,
  type OfflineDriver,
  planItems,
  SIX_TASKS as SIX,
  statusOf,
  system,
  user,
} from "@/tests/support/offline-driver";

let driver: OfflineDriver;
beforeEach(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  driver = await createOfflineDriver();
});
const next: OfflineDriver["next"] = (...args) => driver.next(...args);
const drive: OfflineDriver["drive"] = (...args) => driver.drive(...args);

import { createOfflineModel } from "./model";
import { renderWorkNote, WORK_NOTE_WORDS } from "./work-text";

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

  it("numbers its plan reply as the stored plan, with the plan block refreshed after the call", async () => {
    // The run loop renders the system prompt afresh before every step, so the reply's step
    // already shows the new plan in its block.
    for (const [shown, tasks, stored] of [
      [[], ["a", "b", "c", "d", "e"], ["p1", "p2", "p3", "p4", "p5"]],
      [planItems(["a", "b"], () => "done"), ["c", "d"], ["p3", "p4"]],
    ] as const) {
      driver.ws.plan = [...shown];
      const prompt: LanguageModelV3Prompt = [
        system(renderPlanBlock(driver.ws.plan)),
        user(`plan: ${tasks.join("; ")}`),
      ];
      driver.apply(prompt, await next(prompt));
      prompt[0] = system(renderPlanBlock(driver.ws.plan));
      const reply = await next(prompt);
      expect(driver.ws.plan.map((i) => i.id)).toEqual(stored);
      expect(reply).toEqual({
        kind: "text",
        text: expect.stringContaining(stored.map((id, i) => `- ${id}: ${tasks[i]}`).join("\n")),
      });
    }
  });

  it("work through the plan → marks the first pending item in progress", async () => {
    const block = renderPlanBlock(planItems(["a", "b"]));
    const step = await next([system(block), user("Now work through the plan")]);
    expect(step).toMatchObject({ toolName: "update_plan" });
    if (step.kind === "call") expect(statusOf(step.input)).toBe("p1:in_progress p2:pending");
  });

  it("answers each command in text after the tool's result", async () => {
    driver.ws.files.set("notes/a.md", "first line\nsecond line\n");
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
    expect(driver.ws.plan.map((i) => i.id)).toEqual(["p1", "p2"]);
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
    for (const text of ["Please don't delete anything.", "read carefully!", "I read it."]) {
      expect(await next([system(), user(text)])).toMatchObject({ kind: "text" });
    }
    expect(await next([system(), user("delete `Makefile`")])).toMatchObject({
      toolName: "delete_file",
      input: { path: "Makefile" },
    });
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
    expect(driver.ws.files.get("work/p2.md")).toBe(renderWorkNote("p2", SIX[1] ?? ""));
    expect(driver.ws.plan.every((i) => i.status === "done")).toBe(true);
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

  it("marks an in-progress item done when the workspace block lists its note", async () => {
    const plan = planItems(["a", "b"], (i) => (i === 0 ? "in_progress" : "pending"));
    const workspace = "<workspace>\n2 files: notes.md, work/p1.md\n</workspace>";
    const step = await next([
      system(renderPlanBlock(plan), workspace),
      user("work through the plan"),
    ]);
    expect(step).toMatchObject({ kind: "call", toolName: "update_plan" });
    if (step.kind === "call") expect(statusOf(step.input)).toBe("p1:done p2:pending");
  });

  it("reads the request and the continuation from one message too", async () => {
    const plan = planItems(["a", "b"], (i) => (i === 0 ? "done" : "pending"));
    const step = await next([
      system(renderPlanBlock(plan)),
      user(`work through the plan\n\n${CONTINUE}`),
    ]);
    if (step.kind !== "call") throw new Error("expected a call");
    expect(statusOf(step.input)).toBe("p1:done p2:in_progress");
  });

  it("answers the moved message again, not the continuation, outside the tool vocabulary", async () => {
    const { steps, text } = await drive([
      system(),
      user("remember the port is 8080"),
      user(CONTINUE),
    ]);
    expect(calls(steps).map((c) => [c.toolName, c.input])).toEqual([
      ["pin", { text: "the port is 8080" }],
    ]);
    expect(text).toBe("Noted — I'll remember that the port is 8080.");
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
    driver.apply(prompt, start);
    const write = await next(prompt);
    if (write.kind !== "call") throw new Error("expected a call");
    driver.apply(
      prompt,
      write,
      json({ ok: false, error: "The workspace holds at most 1000 files." }),
    );
    expect(await next(prompt)).toEqual({
      kind: "text",
      text: "I stopped working through the plan: write_file on `work/p1.md` failed — The workspace holds at most 1000 files. The plan shows how far I got.",
    });
  });
});
