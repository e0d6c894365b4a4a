// Tool approvals in a run: the run ends at the request, the answer continues it, a session
// grant skips the next ask until the session ends, a reset never runs a pending call, a new
// message denies it with a result, and two answers resolve it once.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { getCurrentHandoff } from "@/db/queries/handoff-reads";
import { listFileVersions, readFile } from "@/db/queries/workspace";
import { runs } from "@/db/schema";
import type { Actor } from "@/lib/auth/server";
import { resetThreadManually } from "@/lib/runs/reset-requests";
import { createActor, replyText, sendTurn } from "../support/chat";
import {
  answerApproval,
  expectEveryCallAnswered,
  messageAwaitingApproval,
  storedMessages,
  withApprovalAnswer,
} from "../support/runs";
import { spyModel } from "../support/spy-model";

beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "8192";
});

async function fileExists(actor: Actor, threadId: string, path: string) {
  return (await readFile(getDb(), { userId: actor.id, threadId, path })) !== null;
}

async function latestRun(threadId: string) {
  const rows = await getDb().select().from(runs).where(eq(runs.threadId, threadId));
  return rows.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime()).at(-1);
}

/** A thread with two files, then `delete work/p1.md`, stopped at its approval request. */
async function askToDelete(deps = {}) {
  const actor = await createActor();
  const threadId = randomUUID();
  await sendTurn(actor, threadId, "write work/p1.md: the first note", deps);
  await sendTurn(actor, threadId, "write work/p2.md: the second note", deps);
  const asked = await sendTurn(actor, threadId, "delete work/p1.md", deps);
  return { actor, threadId, asked };
}

describe("approvals", () => {
  it("ends the run at the request; Deny keeps the file and the reply says so", async () => {
    const { actor, threadId, asked } = await askToDelete();
    expect(asked.parts.some((p) => p.type === "tool-approval-request")).toBe(true);
    expect(await latestRun(threadId)).toMatchObject({ status: "awaiting_approval" });
    expect(await fileExists(actor, threadId, "work/p1.md")).toBe(true);

    const waiting = await messageAwaitingApproval(actor, threadId);
    if (!waiting) throw new Error("no approval request stored");
    const answer = await answerApproval(actor, threadId, withApprovalAnswer(waiting, false));
    expect(answer.some((p) => p.type === "tool-output-denied")).toBe(true);
    expect(replyText(answer)).toMatch(/not deleted|denied/i);
    expect(await fileExists(actor, threadId, "work/p1.md")).toBe(true);
    expect(await latestRun(threadId)).toMatchObject({ status: "completed" });
  });

  it("Approve deletes the file and its history keeps it", async () => {
    const { actor, threadId } = await askToDelete();
    const waiting = await messageAwaitingApproval(actor, threadId);
    if (!waiting) throw new Error("no approval request stored");
    const answer = await answerApproval(actor, threadId, withApprovalAnswer(waiting, true));
    expect(answer.some((p) => p.type === "tool-output-available")).toBe(true);
    expect(await fileExists(actor, threadId, "work/p1.md")).toBe(false);
    const versions = await listFileVersions(getDb(), {
      userId: actor.id,
      threadId,
      path: "work/p1.md",
    });
    expect(versions.map((v) => v.op).sort()).toEqual(["delete", "write"]);
    // The answer continued the same stored message: its call now has its result.
    const stored = (await storedMessages(actor, threadId)).find((m) => m.id === waiting.id);
    expect(JSON.stringify(stored?.parts)).toContain('"state":"output-available"');
  });

  it("Allow for this session skips the next ask, until a reset ends the session", async () => {
    const { actor, threadId } = await askToDelete();
    const waiting = await messageAwaitingApproval(actor, threadId);
    if (!waiting) throw new Error("no approval request stored");
    await answerApproval(actor, threadId, withApprovalAnswer(waiting, true), {
      allowForSession: true,
    });
    expect(await fileExists(actor, threadId, "work/p1.md")).toBe(false);

    const second = await sendTurn(actor, threadId, "delete work/p2.md");
    expect(second.parts.some((p) => p.type === "tool-approval-request")).toBe(false);
    expect(await fileExists(actor, threadId, "work/p2.md")).toBe(false);

    await sendTurn(actor, threadId, "write work/p3.md: the third note");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    const third = await sendTurn(actor, threadId, "delete work/p3.md");
    expect(third.parts.some((p) => p.type === "tool-approval-request")).toBe(true);
    expect(await fileExists(actor, threadId, "work/p3.md")).toBe(true);
  });

  it("a call pending at a reset is listed in needs_authorization and never runs", async () => {
    const { actor, threadId } = await askToDelete();
    const waiting = await messageAwaitingApproval(actor, threadId);
    if (!waiting) throw new Error("no approval request stored");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });

    const handoff = await getCurrentHandoff({ ownerId: actor.id, key: threadId });
    if (!handoff) throw new Error("no handoff stored");
    const needs = (handoff.artifact as { needs_authorization: string[] }).needs_authorization;
    expect(needs.some((n) => n.includes("delete_file") && n.includes("work/p1.md"))).toBe(true);
    expect(await latestRun(threadId)).toMatchObject({ status: "stopped" });

    // An answer that arrives after the reset is refused, and nothing is deleted.
    await expect(
      answerApproval(actor, threadId, withApprovalAnswer(waiting, true)),
    ).rejects.toMatchObject({ code: "conflict:approval" });
    expect(await fileExists(actor, threadId, "work/p1.md")).toBe(true);
  });

  it("a new message denies the open approval with a result, so the next model call is valid", async () => {
    const spy = spyModel();
    const deps = { languageModel: () => spy.model };
    const { actor, threadId } = await askToDelete(deps);
    const waiting = await messageAwaitingApproval(actor, threadId);
    if (!waiting) throw new Error("no approval request stored");

    const calls = spy.calls.length;
    await sendTurn(actor, threadId, "what do you know?", deps);
    const stored = (await storedMessages(actor, threadId)).find((m) => m.id === waiting.id);
    expect(stored?.parts.find((p) => (p as { toolCallId?: string }).toolCallId)).toMatchObject({
      state: "output-denied",
      approval: { approved: false },
    });
    expect(await fileExists(actor, threadId, "work/p1.md")).toBe(true);
    expect(await latestRun(threadId)).toMatchObject({ status: "completed" });

    const next = spy.calls.slice(calls).find((c) => c.kind === "stream");
    if (!next) throw new Error("no model call after the new message");
    expectEveryCallAnswered(next.prompt);
    const denied = next.prompt
      .flatMap((m) => (m.role === "tool" ? m.content : []))
      .find((p) => p.type === "tool-result" && p.toolName === "delete_file");
    expect(denied).toBeDefined();
  });

  it("two answers from two tabs resolve once: the first wins, the second gets its outcome", async () => {
    const { actor, threadId } = await askToDelete();
    const waiting = await messageAwaitingApproval(actor, threadId);
    if (!waiting) throw new Error("no approval request stored");
    const results = await Promise.allSettled([
      answerApproval(actor, threadId, withApprovalAnswer(waiting, true)),
      answerApproval(actor, threadId, withApprovalAnswer(waiting, false)),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    const winnerApproved = results[0]?.status === "fulfilled";
    const error = (lost[0] as PromiseRejectedResult).reason as { code: string; message: string };
    expect(error.code).toBe("conflict:approval");
    expect(error.message).toContain(winnerApproved ? "approved" : "denied");
    expect(await fileExists(actor, threadId, "work/p1.md")).toBe(!winnerApproved);
  });
});
