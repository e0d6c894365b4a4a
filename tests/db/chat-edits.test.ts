// Edit-and-resend: only the latest user message of the current session may be edited, and an edit
// replaces only its answer. Anything else is a 409 that deletes nothing.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { BatonError } from "@/core/errors";
import { listThreadMessages } from "@/db/queries/messages";
import { getThread } from "@/db/queries/threads";
import type { Actor } from "@/lib/auth/server";
import { resetThreadManually } from "@/lib/runs/reset-requests";
import { runChatTurn } from "@/lib/runs/turn";
import {
  createActor,
  parseSse,
  replyText,
  sendTurn,
  startTurn,
  waitForStoredReplies,
} from "../support/chat";
import { heldModel } from "../support/held-model";

let actor: Actor;

beforeAll(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  actor = await createActor();
});

async function rows(threadId: string) {
  const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 500 });
  return messages.map((m) => ({ id: m.id, role: m.role, sessionId: m.sessionId }));
}

async function conflictOf(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    return error instanceof BatonError ? error.code : String(error);
  }
}

describe("editing a message", () => {
  it("replaces the latest user message and only its answer", async () => {
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "first message");
    const { messageId } = await sendTurn(actor, threadId, "second message");
    const before = await rows(threadId);

    const { response } = await startTurn(actor, threadId, "second, edited", {}, messageId);
    expect(response.status).toBe(200);
    expect(replyText(parseSse(await response.text()))).toContain("edited");

    const after = await rows(threadId);
    expect(after).toHaveLength(before.length);
    expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
    expect(after[2]?.id).toBe(messageId);
    expect(after[3]?.id).not.toBe(before[3]?.id);
  });

  it("refuses an earlier user message with 409 and deletes nothing", async () => {
    const threadId = randomUUID();
    const { messageId: first } = await sendTurn(actor, threadId, "first message");
    for (const text of ["two", "three", "four"]) await sendTurn(actor, threadId, text);
    const before = await rows(threadId);

    expect(await conflictOf(startTurn(actor, threadId, "wipe", {}, first))).toBe(
      "conflict:message",
    );
    const assistantId = before[1]?.id ?? "";
    expect(await conflictOf(startTurn(actor, threadId, "wipe", {}, assistantId))).toBe(
      "conflict:message",
    );
    expect(await rows(threadId)).toEqual(before);
  });

  it("refuses to edit or regenerate while the reply streams, and the reply is kept", async () => {
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "first message");
    const { model: slow, release } = heldModel();
    const { messageId, response } = await startTurn(actor, threadId, "a slow question", {
      languageModel: () => slow,
    });
    const body = response.text();
    // The reply's row is stored (partial) while the model has not answered yet.
    await expect
      .poll(async () => (await rows(threadId)).at(-1)?.role, { timeout: 10_000 })
      .toBe("assistant");
    const streaming = await rows(threadId);

    expect(await conflictOf(startTurn(actor, threadId, "edited meanwhile", {}, messageId))).toBe(
      "conflict:message",
    );
    const regenerate = runChatTurn({
      actor,
      request: { trigger: "regenerate-message", id: threadId },
      signal: new AbortController().signal,
    });
    expect(await conflictOf(regenerate)).toBe("conflict:message");
    expect(await rows(threadId)).toEqual(streaming);

    release();
    expect(replyText(parseSse(await body))).toContain("a slow question");
    await waitForStoredReplies(actor, threadId);
    const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 500 });
    expect(messages.map((m) => m.id)).toEqual(streaming.map((m) => m.id));
    expect(messages.at(-1)?.status).toBe("complete");
  });

  it("never edits across sessions", async () => {
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "remember the sky is green");
    const { messageId: last } = await sendTurn(actor, threadId, "latest of session one");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    const before = await rows(threadId);

    expect(await conflictOf(startTurn(actor, threadId, "wipe", {}, last))).toBe("conflict:message");
    expect(await rows(threadId)).toEqual(before);
  });

  it("a refused first message leaves no thread behind", async () => {
    const threadId = randomUUID();
    const duplicate = randomUUID();
    const refused = await conflictOf(
      runChatTurn({
        actor,
        request: {
          trigger: "submit-message",
          id: threadId,
          model: "openai:not-configured",
          message: { id: duplicate, role: "user", parts: [{ type: "text", text: "hi" }] },
        },
        signal: new AbortController().signal,
      }),
    );
    expect(refused).toBe("bad_request:body");
    expect(await getThread({ userId: actor.id, threadId })).toBeNull();
    expect(await rows(threadId)).toEqual([]);
  });

  it("a new thread exists only with its first message", async () => {
    const threadId = randomUUID();
    const { parts } = await sendTurn(actor, threadId, "hello");
    expect(parts.some((p) => p.type === "text-delta")).toBe(true);
    expect((await getThread({ userId: actor.id, threadId }))?.title).toBe("hello");
    const stored = await rows(threadId);
    expect(stored.map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});
