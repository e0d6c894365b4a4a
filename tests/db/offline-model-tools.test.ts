// The offline model against the real built-in tools of a thread (database-backed workspace and
// plan), in the AI SDK's multi-step loop: it reads the tools' actual result shapes correctly.
import { randomUUID } from "node:crypto";
import { type ModelMessage, stepCountIs, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { getPlan } from "@/db/queries/plans";
import { readFile } from "@/db/queries/workspace";
import { parsePlanBlock, renderPlanBlock } from "@/lib/agents/tools/prompt-blocks";
import { DEFAULT_LOCAL_CONTEXT_WINDOW } from "@/lib/ai/registry";
import { DEFAULT_RESET_THRESHOLD } from "@/lib/context/policy";
import { createOfflineModel } from "@/lib/demo-model/model";
import { renderWorkNote } from "@/lib/demo-model/work-text";
import { createActor, replyText, sendTurn } from "../support/chat";
import { createToolThread } from "../support/workspace";

process.env.BATON_LOCAL_DELAY_MS = "0";

describe("offline model with the built-in tools", () => {
  it("makes a plan, works through it and writes one note per item", async () => {
    const t = await createToolThread();
    const model = createOfflineModel();
    const planRequest: ModelMessage = { role: "user", content: "plan: outline; draft; polish" };
    const planned = streamText({
      model,
      tools: t.tools,
      messages: [planRequest],
      stopWhen: stepCountIs(5),
    });
    expect(await planned.text).toMatch(/^Plan set with 3 items:/);
    const plan = await getPlan(getDb(), { userId: t.userId, threadId: t.threadId });
    expect(plan?.items.map((i) => `${i.id} ${i.task} ${i.status}`)).toEqual([
      "p1 outline pending",
      "p2 draft pending",
      "p3 polish pending",
    ]);
    // The block the run loop renders reads back as the plan.
    expect(parsePlanBlock(renderPlanBlock(plan?.items ?? []))).toEqual(plan?.items);

    const run = streamText({
      model,
      tools: t.tools,
      system: renderPlanBlock(plan?.items ?? []),
      messages: [
        planRequest,
        ...(await planned.response).messages,
        { role: "user", content: "work through the plan" },
      ],
      stopWhen: stepCountIs(30),
    });
    expect(await run.text).toBe(
      "I worked through the plan: all 3 items are done.\n\nFiles I wrote:\n- `work/p1.md`\n- `work/p2.md`\n- `work/p3.md`",
    );
    expect((await run.steps).length).toBe(10);
    const after = await getPlan(getDb(), { userId: t.userId, threadId: t.threadId });
    expect(after?.items.every((i) => i.status === "done")).toBe(true);
    const note = await readFile(getDb(), {
      userId: t.userId,
      threadId: t.threadId,
      path: "work/p2.md",
    });
    expect(note?.content).toBe(renderWorkNote("p2", "draft"));
  });

  it("numbers a plan's items in its reply as the stored plan does, in a new thread and after", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const planned = async (text: string) => {
      const reply = replyText((await sendTurn(actor, threadId, text)).parts);
      const plan = await getPlan(getDb(), { userId: actor.id, threadId });
      return { reply, stored: plan?.items.map((i) => `- ${i.id}: ${i.task}`) ?? [] };
    };
    const first = await planned("plan: a; b; c; d; e");
    expect(first.stored).toEqual(["- p1: a", "- p2: b", "- p3: c", "- p4: d", "- p5: e"]);
    expect(first.reply).toContain(`Plan set with 5 items:\n${first.stored.join("\n")}\n`);
    // A new plan replaces the old one; its ids continue after the old ones.
    const second = await planned("plan: f; g");
    expect(second.stored).toEqual(["- p6: f", "- p7: g"]);
    expect(second.reply).toContain(`Plan set with 2 items:\n${second.stored.join("\n")}\n`);
  });

  it("reads on after the preview of a 200 kB file", async () => {
    const t = await createToolThread();
    const lines = Array.from(
      { length: 4000 },
      (_, i) => `${i + 1} ${"the quick brown fox ".repeat(2)}`,
    );
    const content = lines.join("\n").slice(0, 200_000);
    expect((await t.call("write_file", { path: "big.txt", content })).ok).toBe(true);
    const run = streamText({
      model: createOfflineModel(),
      tools: t.tools,
      messages: [{ role: "user", content: "read big.txt" }],
      stopWhen: stepCountIs(30),
    });
    const steps = await run.steps;
    const reads = steps.flatMap((s) => s.toolCalls.map((c) => c.input as Record<string, unknown>));
    expect(reads[0]).toEqual({ path: "big.txt" });
    const preview = steps[0]?.toolResults[0]?.output as { endLine: number; hint?: string };
    expect(preview.hint).toBeDefined();
    expect(reads[1]).toEqual({
      path: "big.txt",
      startLine: preview.endLine + 1,
      endLine: preview.endLine + Math.min(50, preview.endLine),
    });
    expect(await run.text).toContain(`Lines 1–${preview.endLine} came as a preview, so I read on`);
    // With the default window and threshold, the whole session stays below the reset point.
    const lastInput = (await run.steps).at(-1)?.usage.inputTokens ?? Infinity;
    expect(lastInput).toBeLessThan(DEFAULT_RESET_THRESHOLD * DEFAULT_LOCAL_CONTEXT_WINDOW);
  });

  it("stops at the delete approval; a denial leaves the file and says it was not deleted", async () => {
    const t = await createToolThread();
    await t.call("write_file", { path: "work/p1.md", content: "keep me" });
    const model = createOfflineModel();
    const messages: ModelMessage[] = [{ role: "user", content: "delete work/p1.md" }];
    const asked = streamText({ model, tools: t.tools, messages, stopWhen: stepCountIs(30) });
    const request = (await asked.content).find((p) => p.type === "tool-approval-request");
    if (request?.type !== "tool-approval-request") throw new Error("no approval request");
    const denied = streamText({
      model,
      tools: t.tools,
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
    const file = await readFile(getDb(), {
      userId: t.userId,
      threadId: t.threadId,
      path: "work/p1.md",
    });
    expect(file?.content).toBe("keep me");
  });
});
