// Resets in the middle of a run: the run goes on in the next session in the same stream, the
// handoff carries the run's facts, the clean slate holds, the thrash guard stops a run whose new
// session fills up at once, and a large file is read in ranges without filling the context.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listHandoffRevisions } from "@/db/queries/handoff-reads";
import { getPlan } from "@/db/queries/plans";
import { listSessions } from "@/db/queries/sessions";
import { updateThread } from "@/db/queries/threads";
import { listFiles, writeFile } from "@/db/queries/workspace";
import { agentProfiles, runs } from "@/db/schema";
import { formatMessages } from "@/lib/chat/format-messages";
import type { ChatMessage, ContextResetPart } from "@/lib/chat/types";
import { CARRIED_OVER_CLOSE_TAG, CARRIED_OVER_OPEN_TAG } from "@/lib/handoff/brief";
import { loadThreadView } from "@/lib/runs/thread-open";
import { runChatTurn } from "@/lib/runs/turn";
import { createActor, replyText, type SsePart, sendTurn, startTurn } from "../support/chat";
import { liveMessage, scriptedModel, storedMessages, toolChunks } from "../support/runs";
import { spyModel } from "../support/spy-model";

const saved = { ...process.env };

beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "4096";
});

afterEach(() => {
  process.env = { ...saved };
});

const SIX =
  "plan: outline the guide; draft the intro; list the tools; write the examples; review the text; publish the guide";

const resetParts = (parts: SsePart[]) =>
  parts
    .filter((p) => p.type === "data-context-reset")
    .map((p) => p.data as unknown as ContextResetPart);

/** The rows a thread shows, without their keys (a split live message and its stored halves). */
function rowShapes(messages: ChatMessage[], sessions: Parameters<typeof formatMessages>[1]) {
  return formatMessages(messages, sessions).items.map((item) => {
    if (item.kind !== "message") return `${item.kind}:${item.sessionNumber}`;
    const content = item.message.parts.flatMap((p) => {
      if (p.type === "text") return [`text:${p.text}`];
      const tool = p as { toolCallId?: string; state?: string };
      return tool.toolCallId ? [`${p.type}:${tool.toolCallId}:${tool.state}`] : [];
    });
    return `${item.message.role}:${item.sessionNumber}:${content.join("|")}`;
  });
}

describe("a reset between two tool steps", () => {
  it("works through a six-item plan across the reset in one reply, with the run's facts in the handoff", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, SIX);
    const run = await sendTurn(actor, threadId, "work through the plan");

    // One reply: tool steps, a reset, more tool steps — session after session, no failure.
    const events = resetParts(run.parts);
    expect(events.map((e) => e.event).slice(0, 3)).toEqual([
      "reset_starting",
      "input_blocked",
      "reset_complete",
    ]);
    expect(events.some((e) => e.event === "reset_failed" || e.event === "reset_cancelled")).toBe(
      false,
    );
    const resetAt = run.parts.findIndex((p) => p.type === "data-context-reset");
    const writes = toolChunks(run.parts, "write_file");
    const writeIndex = (id: string) =>
      run.parts.findIndex((p) => (p as { toolCallId?: string }).toolCallId === id);
    const before = writes.filter((w) => writeIndex(w.toolCallId) < resetAt);
    const after = writes.filter((w) => writeIndex(w.toolCallId) > resetAt);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    const sessionNumbers = run.parts
      .filter((p) => p.type === "data-session")
      .map((p) => p.data?.number);
    const resets = events.filter((e) => e.event === "reset_complete").length;
    expect(sessionNumbers).toEqual(Array.from({ length: resets + 1 }, (_, i) => i + 1));

    // All six done, six notes, no new user message.
    const plan = await getPlan(getDb(), { userId: actor.id, threadId });
    expect(plan?.items.map((i) => i.status)).toEqual(Array(6).fill("done"));
    const files = await listFiles(getDb(), { userId: actor.id, threadId });
    expect(files.map((f) => f.path)).toEqual(
      ["p1", "p2", "p3", "p4", "p5", "p6"].map((id) => `work/${id}.md`),
    );
    const stored = await storedMessages(actor, threadId);
    expect(stored.filter((m) => m.role === "user")).toHaveLength(2);
    // The closing reply names every note, those of sessions before the last reset included.
    const closing = replyText(run.parts).split("Files I wrote:").at(-1) ?? "";
    for (const file of files) expect(closing).toContain(file.path);

    // Session 1's handoff: exactly the files written in session 1, exactly the items pending then.
    const revision = (await listHandoffRevisions({ ownerId: actor.id, key: threadId })).find(
      (r) => r.revision === 1,
    );
    const artifact = revision?.artifact as {
      files_modified: string[];
      remaining_tasks: { id: string; task: string }[];
      next_step: string;
    };
    expect([...artifact.files_modified].sort()).toEqual(
      before.map((w) => String(w.input.path)).sort(),
    );
    const lastPlanBefore = toolChunks(run.parts, "update_plan")
      .filter((c) => writeIndex(c.toolCallId) < resetAt)
      .at(-1)?.input.items as { id: string; task: string; status: string }[];
    expect(artifact.remaining_tasks).toEqual(
      lastPlanBefore.filter((i) => i.status === "pending").map(({ id, task }) => ({ id, task })),
    );
    expect(artifact.next_step).not.toBe("");

    // The run spanned both sessions; each session's message holds its own steps.
    const sessions = await listSessions({ userId: actor.id, threadId });
    const [row] = await getDb()
      .select()
      .from(runs)
      .where(eq(runs.threadId, threadId))
      .orderBy(runs.startedAt)
      .offset(1);
    expect(row).toMatchObject({ status: "completed", sessionIds: sessions.map((s) => s.id) });
    const assistants = stored.filter((m) => m.role === "assistant").slice(1);
    expect(assistants.map((m) => m.metadata?.sessionId)).toEqual(sessions.map((s) => s.id));

    // A reload shows the same rows as the live stream.
    const view = await loadThreadView({ userId: actor.id, threadId });
    if (!view) throw new Error("no thread view");
    const live = await liveMessage(run.parts);
    const earlier = stored.filter((m) => !assistants.some((a) => a.id === m.id));
    expect(rowShapes([...earlier, live], view.sessions)).toEqual(rowShapes(stored, view.sessions));

    // Its answer spans sessions: editing or regenerating the request is refused, nothing goes.
    await expect(
      startTurn(actor, threadId, "work through the plan twice", {}, run.messageId),
    ).rejects.toMatchObject({ code: "conflict:message" });
    await expect(
      runChatTurn({
        actor,
        request: { trigger: "regenerate-message", id: threadId },
        signal: new AbortController().signal,
      }),
    ).rejects.toMatchObject({ code: "conflict:message" });
    expect(await storedMessages(actor, threadId)).toEqual(stored);
  });

  it("starts session 2 from a clean slate: no session-1 tool output outside the carried-over block", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const spy = spyModel();
    const deps = { languageModel: () => spy.model };
    await sendTurn(
      actor,
      threadId,
      "write notes/sentinel.md: SENTINEL-KIWI-7741 is only in this file",
      deps,
    );
    await sendTurn(actor, threadId, "read notes/sentinel.md", deps);
    await sendTurn(actor, threadId, SIX, deps);
    const calls = spy.calls.length;
    const run = await sendTurn(actor, threadId, "work through the plan", deps);
    const complete = resetParts(run.parts).find((e) => e.event === "reset_complete");
    expect(complete?.sessionNumber).toBe(2);

    // The first call after the reset: the one whose system prompt carries the brief.
    const first = spy.calls
      .slice(calls)
      .find(
        (c) =>
          c.kind === "stream" &&
          c.prompt.some(
            (m) => m.role === "system" && String(m.content).includes(CARRIED_OVER_OPEN_TAG),
          ),
      );
    if (!first) throw new Error("no call in session 2");
    const system = first.prompt
      .filter((m) => m.role === "system")
      .map((m) => String(m.content))
      .join("\n");
    const outsideBlock =
      system.slice(0, system.indexOf(CARRIED_OVER_OPEN_TAG)) +
      system.slice(system.indexOf(CARRIED_OVER_CLOSE_TAG));
    const rest = JSON.stringify(first.prompt.filter((m) => m.role !== "system"));
    expect(outsideBlock).not.toContain("SENTINEL-KIWI-7741");
    expect(rest).not.toContain("SENTINEL-KIWI-7741");
    // Only the moved request and the continue line reach it as messages.
    expect(first.prompt.filter((m) => m.role !== "system").map((m) => m.role)).toEqual([
      "user",
      "user",
    ]);

    // The plan and the files are intact.
    const files = await listFiles(getDb(), { userId: actor.id, threadId });
    expect(files.map((f) => f.path)).toContain("notes/sentinel.md");
    const plan = await getPlan(getDb(), { userId: actor.id, threadId });
    expect(plan?.items).toHaveLength(6);
    expect(system).toContain("<plan>");
  });
});

describe("the thrash guard", () => {
  it("stops a run whose every step adds a third of the window, after at most one reset", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    // Every step writes a file of ~35% of the 4,096-token window.
    const big = Array.from({ length: 1430 }, (_, i) => `w${i % 10}`).join(" ");
    const scripted = scriptedModel((_, call) => ({
      toolName: "write_file",
      input: { path: `big/${call}.md`, content: big },
    }));
    const deps = { languageModel: () => scripted.model };
    await sendTurn(actor, threadId, "hello");
    await getDb()
      .insert(agentProfiles)
      .values({
        id: `thrash-${threadId}`,
        userId: actor.id,
        name: "Thrash test",
        systemPrompt: "You write large files.",
        contextStrategy: "reset",
        resetThreshold: 0.8,
        compactThreshold: 0.5,
        maxSteps: 25,
      });
    await updateThread({ userId: actor.id, threadId, profile: `thrash-${threadId}` });

    const run = await sendTurn(actor, threadId, "fill the workspace", deps);
    const events = resetParts(run.parts);
    expect(events.filter((e) => e.event === "reset_complete")).toHaveLength(1);
    const failed = events.at(-1);
    expect(failed).toMatchObject({ event: "reset_failed", code: "thrash" });
    expect(failed?.reason).toMatch(/stopped/i);
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => s.number)).toEqual([1, 2]);
    const [row] = await getDb()
      .select()
      .from(runs)
      .where(eq(runs.threadId, threadId))
      .orderBy(runs.startedAt)
      .offset(1);
    expect(row).toMatchObject({ status: "reset_failed", failureReason: "thrash" });
    expect(row?.stepCount).toBeLessThan(25);
  });
});

describe("a failed reset in the middle of a run", () => {
  it("leaves the run in session 1 until it ends at the step limit", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const big = Array.from({ length: 1430 }, (_, i) => `w${i % 10}`).join(" ");
    // The handoff pins a fact too large for any new session: the reset cannot fit and fails.
    const scripted = scriptedModel(
      (_, call) => ({ toolName: "write_file", input: { path: `big/${call}.md`, content: big } }),
      {
        goal: "scripted",
        state_summary: "working",
        must_preserve: [Array.from({ length: 2850 }, () => "pinned").join(" ")],
      },
    );
    await sendTurn(actor, threadId, "hello");
    await getDb()
      .insert(agentProfiles)
      .values({
        id: `limit-${threadId}`,
        userId: actor.id,
        name: "Six steps",
        systemPrompt: "You write large files.",
        contextStrategy: "reset",
        maxSteps: 6,
      });
    await updateThread({ userId: actor.id, threadId, profile: `limit-${threadId}` });

    const run = await sendTurn(actor, threadId, "fill the workspace", {
      languageModel: () => scripted.model,
    });
    const events = resetParts(run.parts);
    expect(events.map((e) => e.event)).toEqual(["reset_starting", "input_blocked", "reset_failed"]);
    expect(toolChunks(run.parts, "write_file")).toHaveLength(6);
    const writeAfterFailure = run.parts.findIndex(
      (p, i) =>
        i > run.parts.findIndex((q) => q.type === "data-context-reset") &&
        p.type === "tool-input-available",
    );
    expect(writeAfterFailure).toBeGreaterThan(0);
    expect((await listSessions({ userId: actor.id, threadId })).map((s) => s.number)).toEqual([1]);
    const [row] = await getDb()
      .select()
      .from(runs)
      .where(eq(runs.threadId, threadId))
      .orderBy(runs.startedAt)
      .offset(1);
    expect(row).toMatchObject({ status: "step_limit", stepCount: 6 });
    const stored = await storedMessages(actor, threadId);
    expect(stored.filter((m) => m.role === "assistant")).toHaveLength(2);
  });
});

describe("a large file", () => {
  it("is read as a preview and then a later range, and the session stays under the threshold", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "hello");
    const line = (n: number) =>
      `line ${n}: ${"the quick brown fox jumps over the lazy dog ".repeat(2)}`;
    const content = Array.from({ length: 2300 }, (_, i) => line(i + 1)).join("\n");
    expect(Buffer.byteLength(content)).toBeGreaterThan(200_000);
    const sessions = await listSessions({ userId: actor.id, threadId });
    await writeFile(getDb(), {
      userId: actor.id,
      threadId,
      path: "data/big.txt",
      content,
      sessionId: sessions[0]?.id ?? null,
      runId: null,
      toolCallId: null,
    });

    const run = await sendTurn(actor, threadId, "read data/big.txt");
    const reads = toolChunks(run.parts, "read_file");
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads[0]?.input).toEqual({ path: "data/big.txt" });
    const outputs = run.parts.filter((p) => p.type === "tool-output-available") as unknown as {
      toolCallId: string;
      output: { path: string; hint?: string; endLine: number };
    }[];
    const preview = outputs.find((o) => o.toolCallId === reads[0]?.toolCallId)?.output;
    expect(preview?.path).toBe("data/big.txt");
    expect(preview?.hint).toContain("data/big.txt");
    expect(Number(reads[1]?.input.startLine)).toBeGreaterThan(preview?.endLine ?? 0);

    expect(resetParts(run.parts)).toEqual([]);
    const readings = run.parts
      .filter((p) => p.type === "data-context")
      .map((p) => p.data?.utilization as number);
    expect(Math.max(...readings)).toBeLessThan(0.8);
    expect((await listSessions({ userId: actor.id, threadId })).map((s) => s.number)).toEqual([1]);
  });
});
