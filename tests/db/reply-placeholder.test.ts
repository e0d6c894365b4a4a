// The reply's row (which gives it its seq, and which a reload and recovery find) is stored once
// the first words are out, or while a model is slow to say anything: a model that has not
// answered yet still has its reply's row, partial, under the question. The claim of a new
// message is stored with it: one run, in the message's session.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listThreadMessages } from "@/db/queries/messages";
import { runs } from "@/db/schema";
import { createActor, parseSse, sendTurn, startTurn, waitForStoredReplies } from "../support/chat";
import { heldModel } from "../support/held-model";

describe("the reply's row", () => {
  it("is stored, partial, while the model has not said its first word", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "the first question");

    const { model: slow, release } = heldModel();
    const { messageId, response } = await startTurn(actor, threadId, "a slow question", {
      languageModel: () => slow,
    });
    const body = response.text();

    const replyRow = async () => {
      const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 10 });
      const question = messages.find((m) => m.id === messageId);
      return messages.find((m) => m.role === "assistant" && m.seq > (question?.seq ?? Infinity));
    };
    await expect.poll(async () => (await replyRow())?.status, { timeout: 10_000 }).toBe("partial");
    release();

    const parts = parseSse(await body);
    expect(parts.some((p) => p.type === "text-delta")).toBe(true);
    await waitForStoredReplies(actor, threadId);
    expect((await replyRow())?.status).toBe("complete");

    // One run answers the question, placed in the question's session.
    const claims = await getDb().select().from(runs).where(eq(runs.requestMessageId, messageId));
    expect(claims).toHaveLength(1);
    const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 10 });
    const sessionId = messages.find((m) => m.id === messageId)?.sessionId;
    expect(claims[0]?.sessionIds).toEqual([sessionId]);
    expect(claims[0]?.status).toBe("completed");
  });
});
