// Live streams: a reply is recorded as it streams and can be followed from its start by another
// reader; the thread API leaves the in-flight row out while it is live; only an explicit stop
// ends a reply (not a dropped request), and a stop leaves queued messages alone. Runs on PGlite
// or on DATABASE_URL's Postgres, with the in-process bus or REDIS_URL's Redis.
import { randomUUID } from "node:crypto";
import { MockLanguageModelV3 } from "ai/test";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as chatRoute } from "@/app/api/chat/route";
import { getDb } from "@/db/client";
import { getActiveReset } from "@/db/queries/resets";
import { updateThread } from "@/db/queries/threads";
import { agentProfiles, runs } from "@/db/schema";
import type { ContextResetPart } from "@/lib/chat/types";
import { resetThreadManually } from "@/lib/runs/reset-requests";
import { guestHeaders } from "../support/auth";
import { parseSse, replyText, sendTurn, startTurn, waitForStoredReplies } from "../support/chat";
import {
  actorOf,
  gatedModel,
  getStream,
  latch,
  postStop,
  readAlong,
  threadView,
  watchedTool,
} from "../support/live";
import { scriptedModel, storedMessages } from "../support/runs";

const saved = { ...process.env };
let headers: Headers;

beforeAll(async () => {
  headers = await guestHeaders();
});

beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
});

afterEach(() => {
  process.env = { ...saved };
});

const statuses = (view: Awaited<ReturnType<typeof threadView>>) =>
  view.messages.map((m) => `${m.role}:${m.metadata?.status}`);

async function runsOf(threadId: string) {
  return getDb().select().from(runs).where(eq(runs.threadId, threadId));
}

describe("following a live reply", () => {
  it("a second reader joining mid-reply gets the same text; the page leaves the row out until it ends", async () => {
    const actor = await actorOf(headers);
    const threadId = randomUUID();
    const gated = gatedModel(["Hello ", "from ", "a live ", "stream."]);
    const { response } = await startTurn(actor, threadId, "hi", {
      languageModel: () => gated.model,
    });
    const first = readAlong(response);
    gated.release(2);
    await expect.poll(() => first.text(), { timeout: 10_000, interval: 10 }).toContain("from ");

    // The reply's row is stored while the model starts, so a page read in the first moments can
    // still name the question as unanswered (as it could before any reply was stored); it stops
    // once the row is in, which is while the reply is still live (the model holds its last words).
    let during = await threadView(headers, threadId);
    for (let i = 0; i < 100 && during.answering.length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      during = await threadView(headers, threadId);
    }
    expect(during.live).toHaveLength(1);
    expect(during.live[0]).toMatchObject({ continuesMessageId: null });
    expect(during.live[0]?.requestId).toBe(during.messages[0]?.id);
    expect(statuses(during)).toEqual(["user:complete"]);
    expect(during.answering).toEqual([]);

    const resumed = await getStream(headers, threadId);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get("content-type")).toContain("text/event-stream");
    expect(resumed.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const second = readAlong(resumed);
    gated.releaseAll();
    const [original, followed] = await Promise.all([first.done, second.done]);
    expect(replyText(parseSse(followed))).toBe("Hello from a live stream.");
    expect(replyText(parseSse(followed))).toBe(replyText(parseSse(original)));
    // The follower saw the whole stream from its start, the same message id included.
    const startOf = (sse: string) => parseSse(sse).find((p) => p.type === "start");
    expect(startOf(followed)).toEqual(startOf(original));

    await waitForStoredReplies(actor, threadId);
    const after = await threadView(headers, threadId);
    expect(after.live).toEqual([]);
    expect(statuses(after)).toEqual(["user:complete", "assistant:complete"]);
    const stored = after.messages[1]?.parts.find((p) => p.type === "text");
    expect(stored).toMatchObject({ text: "Hello from a live stream." });

    // Nothing live any more: the newest stream and the named one both answer 204.
    expect((await getStream(headers, threadId)).status).toBe(204);
    const named = during.live[0]?.streamId ?? "";
    expect((await getStream(headers, threadId, named)).status).toBe(204);
  });

  it("answers 204 when nothing is live, and 404 for another user's or an unknown thread", async () => {
    const actor = await actorOf(headers);
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "hello");
    expect((await getStream(headers, threadId)).status).toBe(204);
    expect((await getStream(headers, threadId, randomUUID())).status).toBe(204);

    const stranger = await guestHeaders();
    for (const response of [
      await getStream(stranger, threadId),
      await postStop(stranger, threadId),
      await getStream(headers, randomUUID()),
      await postStop(headers, randomUUID()),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: "not_found:thread" } });
    }
    const malformed = await getStream(headers, threadId, "not-a-uuid");
    expect(malformed.status).toBe(400);
    const extra = await postStop(headers, threadId, { streamId: randomUUID(), also: 1 });
    expect(extra.status).toBe(400);
    // Nothing is generating: a stop addresses nothing.
    const idle = await postStop(headers, threadId);
    expect(await idle.json()).toEqual({ stopping: 0 });
  });
});

describe("stop", () => {
  it("ends the reply partial, fires a running tool's abort signal and settles its call as stopped", async () => {
    const actor = await actorOf(headers);
    const threadId = randomUUID();
    const gated = gatedModel(["never sent"], {
      0: { toolName: "watch", toolCallId: "call-watch" },
    });
    const watched = watchedTool();
    const { response } = await startTurn(actor, threadId, "work on it", {
      languageModel: () => gated.model,
      tools: { watch: watched.tool },
    });
    const reading = readAlong(response);
    await watched.running;

    const stop = await postStop(headers, threadId);
    expect(stop.status).toBe(200);
    expect(await stop.json()).toEqual({ stopping: 1 });
    const parts = parseSse(await reading.done);
    expect(watched.state.aborted).toBe(true);
    expect(parts.some((p) => p.type === "error")).toBe(false);
    expect(parts).toContainEqual(
      expect.objectContaining({
        type: "tool-output-error",
        toolCallId: "call-watch",
        errorText: "Stopped by the user.",
      }),
    );
    expect(parts.at(-1)).toMatchObject({ type: "finish" });
    // The model was not called again after the tool.
    expect(gated.calls()).toBe(1);

    // A stopped reply stays partial: wait for its run to end instead.
    await expect
      .poll(async () => (await runsOf(threadId)).map((r) => r.status), { interval: 25 })
      .toEqual(["stopped"]);
    const [, reply] = await storedMessages(actor, threadId);
    expect(reply?.metadata?.status).toBe("partial");
    expect(reply?.parts.find((p) => p.type === "tool-watch")).toMatchObject({
      state: "output-error",
      errorText: "Stopped by the user.",
    });
    expect((await threadView(headers, threadId)).live).toEqual([]);
  });

  it("a dropped request does not stop the reply: it is answered in full", async () => {
    process.env.BATON_LOCAL_DELAY_MS = "15";
    const actor = await actorOf(headers);
    const threadId = randomUUID();
    const client = new AbortController();
    const h = new Headers(headers);
    h.set("content-type", "application/json");
    const response = await chatRoute(
      new Request("http://localhost:3000/api/chat", {
        method: "POST",
        headers: h,
        signal: client.signal,
        body: JSON.stringify({
          id: threadId,
          trigger: "submit-message",
          message: {
            id: randomUUID(),
            role: "user",
            parts: [{ type: "text", text: "tell me about rivers" }],
          },
        }),
      }),
    );
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (reader && !seen.includes('"text-delta"')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    // The tab closes: the request is aborted and nobody reads the response any more.
    client.abort();
    await reader?.cancel();

    await waitForStoredReplies(actor, threadId);
    const [, reply] = await storedMessages(actor, threadId);
    expect(reply?.metadata?.status).toBe("complete");
    expect((await runsOf(threadId)).map((r) => r.status)).toEqual(["completed"]);
  });

  it("leaves a message queued behind a reset alone: it is answered after the reset", async () => {
    const actor = await actorOf(headers);
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "remember the river is called Tagus");
    process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "1500";
    const reset = resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    await expect
      .poll(() => getActiveReset({ userId: actor.id, threadId }), { interval: 10 })
      .not.toBeNull();
    const { response } = await startTurn(actor, threadId, "what do you know?");
    const reading = readAlong(response);
    await expect
      .poll(async () => (await threadView(headers, threadId)).live.length, { interval: 10 })
      .toBe(1);
    const view = await threadView(headers, threadId);
    expect(view.reset).toMatchObject({ fromSession: 1, trigger: "manual" });

    const stop = await postStop(headers, threadId);
    expect(await stop.json()).toEqual({ stopping: 0 });
    const parts = parseSse(await reading.done);
    await reset;
    expect(parts.find((p) => p.type === "data-queued")).toBeDefined();
    expect(replyText(parts)).toContain("Tagus");
    await waitForStoredReplies(actor, threadId);
    const messages = await storedMessages(actor, threadId);
    expect(messages.at(-1)).toMatchObject({ role: "assistant", metadata: { status: "complete" } });
    expect((await threadView(headers, threadId)).reset).toBeNull();
  });

  it("never cancels a reset: the reset reaches its outcome, then the run ends without another leg", async () => {
    process.env.BATON_LOCAL_CONTEXT_WINDOW = "4096";
    const actor = await actorOf(headers);
    const threadId = randomUUID();
    // Every step writes a file of ~35% of the window: the run resets between two steps.
    const big = Array.from({ length: 1430 }, (_, i) => `w${i % 10}`).join(" ");
    const scripted = scriptedModel((_, call) => ({
      toolName: "write_file",
      input: { path: `big/${call}.md`, content: big },
    }));
    // The handoff (the reset's own model call) waits until the test lets it go.
    const handoffAsked = latch();
    const handoffGo = latch();
    let streamed = 0;
    const model = new MockLanguageModelV3({
      provider: "baton",
      modelId: "local",
      doGenerate: async (options) => {
        handoffAsked.open();
        await handoffGo.opened;
        return scripted.model.doGenerate(options);
      },
      doStream: async (options) => {
        streamed++;
        return scripted.model.doStream(options);
      },
    });
    await sendTurn(actor, threadId, "hello");
    await getDb()
      .insert(agentProfiles)
      .values({
        id: `resets-${threadId}`,
        userId: actor.id,
        name: "Resets",
        systemPrompt: "You write large files.",
        contextStrategy: "reset",
        resetThreshold: 0.8,
        compactThreshold: 0.5,
        maxSteps: 25,
      });
    await updateThread({ userId: actor.id, threadId, profile: `resets-${threadId}` });

    const { response } = await startTurn(actor, threadId, "fill the workspace", {
      languageModel: () => model,
    });
    const reading = readAlong(response);
    await handoffAsked.opened;
    const callsBeforeStop = streamed;
    const stop = await postStop(headers, threadId);
    expect(await stop.json()).toEqual({ stopping: 1 });
    handoffGo.open();

    const parts = parseSse(await reading.done);
    const events = parts
      .filter((p) => p.type === "data-context-reset")
      .map((p) => (p.data as unknown as ContextResetPart).event);
    expect(events[0]).toBe("reset_starting");
    expect(events.at(-1)).toBe("reset_complete");
    expect(parts.some((p) => p.type === "error")).toBe(false);
    // No model call after the reset: the stopped run started no further leg.
    expect(streamed).toBe(callsBeforeStop);
    await expect
      .poll(async () => (await runsOf(threadId)).map((r) => r.status).sort(), { interval: 25 })
      .toEqual(["completed", "stopped"]);
    expect((await threadView(headers, threadId)).sessions).toHaveLength(2);
  });
});
