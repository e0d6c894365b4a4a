// A new thread's title after its first exchange: short words of the first message (the offline
// model's title), never the first line cut off; masked like everything the share page shows;
// and a rename made while the title is being written is the one kept.
import { randomUUID } from "node:crypto";
import type { LanguageModelV3, LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getThread, updateThread } from "@/db/queries/threads";
import { titleFromMessage } from "@/lib/chat/request";
import { settleTitles, writeTitleSoon } from "@/lib/chat/thread-title";
import { createActor, sendTurn } from "../support/chat";

const saved = { ...process.env };
beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
});
afterEach(() => {
  process.env = { ...saved };
});

/** A model whose one answer waits until the test lets it go. */
function heldModel(answer: string) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let called: () => void = () => {};
  const calledOnce = new Promise<void>((resolve) => {
    called = resolve;
  });
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "test",
    modelId: "held",
    supportedUrls: {},
    async doGenerate(): Promise<LanguageModelV3GenerateResult> {
      called();
      await held;
      return {
        content: [{ type: "text", text: answer }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      };
    },
    doStream: () => Promise.reject(new Error("not used")),
  };
  return { model, release, calledOnce };
}

describe("thread titles", () => {
  it("titles a new thread with a few words of its first message after the first exchange", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const first =
      "Could you help me plan the harbour ferry timetable for the spring season, including " +
      "the extra Saturday sailings and the lighthouse tours?";
    await sendTurn(actor, threadId, first);
    await settleTitles();
    const title = (await getThread({ userId: actor.id, threadId }))?.title ?? "";
    expect(title).toBe("Plan harbour ferry timetable spring");
    expect(title.split(" ").length).toBeLessThanOrEqual(6);
    expect(first.toLowerCase().startsWith(title.toLowerCase())).toBe(false);
    expect(title).not.toBe(titleFromMessage(first));
  });

  it("keeps a message of small talk as its own title, and masks secrets in a title", async () => {
    const actor = await createActor();
    const hello = randomUUID();
    await sendTurn(actor, hello, "hello there");
    const secret = randomUUID();
    await sendTurn(
      actor,
      secret,
      "sk-proj-4f9Qz7LmX2aB8cD1eF6gH3jK5nP0rS rotate staging deploy key",
    );
    await settleTitles();
    expect((await getThread({ userId: actor.id, threadId: hello }))?.title).toBe("hello there");
    const masked = (await getThread({ userId: actor.id, threadId: secret }))?.title ?? "";
    expect(masked).toBe("Rotate staging deploy key");
  });

  it("keeps a rename made while the title is being written", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "hello there");
    const placeholder = "hello there";
    const { model, release, calledOnce } = heldModel("Greeting the harbour master");
    writeTitleSoon({
      userId: actor.id,
      threadId,
      firstMessage: placeholder,
      placeholder,
      model: () => model,
    });
    await calledOnce;
    await updateThread({ userId: actor.id, threadId, title: "My own name" });
    release();
    await settleTitles();
    expect((await getThread({ userId: actor.id, threadId }))?.title).toBe("My own name");

    // Without the rename the model's title is taken.
    const other = randomUUID();
    await sendTurn(actor, other, "hello there");
    const second = heldModel("“Greeting the harbour master.”");
    writeTitleSoon({
      userId: actor.id,
      threadId: other,
      firstMessage: placeholder,
      placeholder,
      model: () => second.model,
    });
    second.release();
    await settleTitles();
    expect((await getThread({ userId: actor.id, threadId: other }))?.title).toBe(
      "Greeting the harbour master",
    );
  });
});
