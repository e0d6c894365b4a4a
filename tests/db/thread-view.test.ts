// The thread view's context reading, which the meter shows after a reload.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { OFFLINE_MODEL_ID } from "@/lib/ai/registry";
import type { Actor } from "@/lib/auth/server";
import { loadThreadView } from "@/lib/chat/thread-view";
import { resetThreadManually } from "@/lib/context/manual-reset";
import { builtinToolTokens } from "@/lib/runs/run-context";
import { createActor, sendTurn } from "../support/chat";

let actor: Actor;

beforeAll(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  actor = await createActor();
});

describe("the thread view's context", () => {
  it("counts the tool definitions in a session that has made no call yet", async () => {
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "remember the kettle is blue");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    const view = await loadThreadView({ userId: actor.id, threadId, limit: 50 });
    const tools = await builtinToolTokens(OFFLINE_MODEL_ID);
    expect(view?.sessions).toHaveLength(2);
    expect(view?.context?.inputTokens).toBeGreaterThan(tools);
  });
});
