// What a chat turn does before its first token: the SQL statements sent before the model is
// first asked stay within a budget (it was 25 and 31 when first set; the new thread's figure
// includes this process's first turn registering its instance and reading its token-ratio
// prior). A thread the request creates skips the checks a thread with history needs, and the
// reply's placeholder is stored once the first words are out. The reply the client sees still
// gets its stored seq and session, and the new thread its title.
import { randomUUID } from "node:crypto";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { listThreadMessages } from "@/db/queries/messages";
import { getThread } from "@/db/queries/threads";
import type { Actor } from "@/lib/auth/server";
import { settleTitles } from "@/lib/chat/thread-title";
import { createOfflineModel } from "@/lib/demo-model/model";
import { createActor, parseSse, sendTurn, startTurn, waitForStoredReplies } from "../support/chat";
import { recordStatements, type Statement } from "../support/statement-log";

/**
 * One turn: its SSE parts, and how many statements were sent before the model was first asked
 * (what the first token waits for; the reply's placeholder is stored while the model starts, so
 * counting to the first text delta would depend on how fast the model's first word comes).
 */
async function measuredTurn(actor: Actor, threadId: string, text: string) {
  const sent: Statement[] = [];
  let before = -1;
  const inner = createOfflineModel();
  const model: LanguageModelV3 = {
    ...inner,
    doGenerate: (options) => inner.doGenerate(options),
    doStream: (options) => {
      if (before < 0) before = sent.length;
      return inner.doStream(options);
    },
  };
  const { response } = await recordStatements(async () => {
    const started = await startTurn(actor, threadId, text, { languageModel: () => model });
    await started.response.clone().text();
    return started;
  }, sent).then(({ result }) => result);
  const parts = parseSse(await response.text());
  await waitForStoredReplies(actor, threadId);
  return { parts, before };
}

describe("a chat turn before its first token", () => {
  it("a new thread's first message: at most 11 statements, and the reply still gets its seq", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const { parts, before } = await measuredTurn(actor, threadId, "hello there, new thread");
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThanOrEqual(11);

    // The reply's metadata (its stored seq and session) reaches the client, now after its first
    // words rather than before them, and matches the stored reply.
    const metadata = parts.find(
      (p) =>
        p.type === "message-metadata" &&
        "seq" in ((p as { messageMetadata?: object }).messageMetadata ?? {}),
    ) as { messageMetadata: { seq: number; sessionId: string } } | undefined;
    expect(metadata).toBeDefined();
    const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 10 });
    const reply = messages.find((m) => m.role === "assistant");
    expect(reply?.status).toBe("complete");
    expect(reply?.seq).toBe(metadata?.messageMetadata.seq);
    expect(reply?.sessionId).toBe(metadata?.messageMetadata.sessionId);
    expect(reply?.seq).toBeGreaterThan(messages.find((m) => m.role === "user")?.seq ?? Infinity);

    // The model's title (its salient words, not the placeholder cut from the message) is written
    // once the reply has started.
    await settleTitles();
    expect((await getThread({ userId: actor.id, threadId }))?.title).toBe("New thread");
  });

  it("a thread with history: at most 10 statements", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "the first question");
    const { before, parts } = await measuredTurn(actor, threadId, "a second question");
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThanOrEqual(10);
    expect(parts.some((p) => p.type === "text-delta")).toBe(true);
  });
});
