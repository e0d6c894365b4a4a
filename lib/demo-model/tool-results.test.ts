// What the offline model does with tool results: denials and errors, large-file previews, the
// handoff it writes from a prompt with tool work, and its streams and usage for tool calls.
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { beforeEach, describe, expect, it } from "vitest";
import { renderPlanBlock } from "@/lib/agents/tools/prompt-blocks";
import { HANDOFF_INSTRUCTION } from "@/lib/context/prompts";
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

import { estimatePromptTokens, toolDefinitionTokens } from "@/lib/ai/token-count";
import { createOfflineModel } from "./model";
import { renderWorkNote } from "./work-text";

describe("offline tools: approvals and large files", () => {
  it("a denied delete is answered in text: the file was not deleted", async () => {
    const prompt = [system(), user("delete work/p1.md")];
    const step = await next(prompt);
    if (step.kind !== "call") throw new Error("expected a call");
    driver.apply(prompt, step, { type: "execution-denied" });
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

  it("describes a result that was too large to send whole", async () => {
    const prompt = [system(), user("list files")];
    const step = await next(prompt);
    driver.apply(
      prompt,
      step,
      json({
        spilled: true,
        path: ".baton/results/call_1.txt",
        bytes: 9000,
        totalLines: 300,
        preview: '{"ok": true, "files": [',
        note: "The result was 9000 bytes…",
      }),
    );
    expect(await next(prompt)).toEqual({
      kind: "text",
      text: 'The result was too large to show whole; it is stored in `.baton/results/call_1.txt` (300 lines). It begins: “{"ok": true, "files": [”',
    });
  });

  it("a preview of a large file is followed by a ranged read of the next lines, then a reply", async () => {
    const lines = Array.from(
      { length: 4000 },
      (_, i) => `line ${i + 1}: ${"lorem ipsum dolor sit amet ".repeat(2).trim()}`,
    );
    driver.ws.files.set("big.txt", `${lines.join("\n")}\n`);
    const { steps, text } = await drive([system(), user("read big.txt")]);
    const reads = calls(steps);
    expect(reads.map((s) => s.input)).toEqual([
      { path: "big.txt" },
      { path: "big.txt", startLine: expect.any(Number), endLine: expect.any(Number) },
    ]);
    const preview = driver.ws.execute("read_file", { path: "big.txt" }) as { endLine: number };
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
    driver.apply(p, first);
    const { stream } = await createOfflineModel().doStream({
      prompt: p,
      tools: driver.definitions,
    });
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
      estimatePromptTokens(p, "baton/local") +
        toolDefinitionTokens(driver.definitions, "baton/local"),
    );
    expect(finish.usage.outputTokens.total).toBeGreaterThan(450);
  });

  it("counts the tool driver.definitions as input, and nothing for a call without tools", async () => {
    const p = [system(), user("hello")];
    const withTools = await createOfflineModel().doGenerate({
      prompt: p,
      tools: driver.definitions,
    });
    const without = await createOfflineModel().doGenerate({ prompt: p });
    const toolTokens = toolDefinitionTokens(driver.definitions, "baton/local");
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
      driver.apply(prompt, step);
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
