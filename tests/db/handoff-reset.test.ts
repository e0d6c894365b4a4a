// must_preserve across resets whose author (the model) leaves it out, read back through the API.
import { randomUUID } from "node:crypto";
import type { LanguageModelV3, LanguageModelV3Content } from "@ai-sdk/provider";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { listSessions } from "@/db/queries/sessions";
import type { ProviderEnv } from "@/lib/ai/providers";
import { currentActor } from "@/lib/auth/server";
import { createOfflineModel } from "@/lib/demo-model/model";
import { resetThreadManually } from "@/lib/runs/reset-requests";
import { guestHeaders } from "../support/auth";
import { replyText, sendTurn } from "../support/chat";
import { getHandoff, upsert } from "./handoff-support";

/*
 * The reset asks the thread's model for the handoff through the provider registry; while
 * `forgetful.on` is set, that model writes its artifact with must_preserve emptied, as a real
 * model that drops pinned items would.
 */
const forgetful = { on: false, dropped: [] as string[][] };

function forgetfulModel(): LanguageModelV3 {
  const inner = createOfflineModel();
  return {
    specificationVersion: "v3",
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doStream: (options) => inner.doStream(options),
    doGenerate: async (options) => {
      const result = await inner.doGenerate(options);
      if (options.responseFormat?.type !== "json") return result;
      const content = result.content.map((part): LanguageModelV3Content => {
        if (part.type !== "text") return part;
        const artifact = JSON.parse(part.text) as { must_preserve?: string[] };
        forgetful.dropped.push(artifact.must_preserve ?? []);
        return { ...part, text: JSON.stringify({ ...artifact, must_preserve: [] }) };
      });
      return { ...result, content };
    },
  };
}

vi.mock("@/lib/ai/providers", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/ai/providers")>();
  return {
    ...original,
    getLanguageModel: (modelId: string, env?: ProviderEnv) =>
      forgetful.on ? forgetfulModel() : original.getLanguageModel(modelId, env),
  };
});

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
});

describe("must_preserve", () => {
  it("must_preserve survives a revision whose author omitted it when written by a reset", async () => {
    const headers = await guestHeaders();
    const actor = await currentActor(headers);
    if (!actor) throw new Error("no guest session");
    const threadId = randomUUID();

    await sendTurn(actor, threadId, "remember the vault is in Lisbon");
    await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    const first = await getHandoff(headers, threadId);
    expect(first.body).toMatchObject({ revision: 1, kind: "session" });
    expect((first.body.artifact as { must_preserve: string[] }).must_preserve).toContain(
      "the vault is in Lisbon",
    );

    await sendTurn(actor, threadId, "todo pack the maps");
    forgetful.on = true;
    try {
      await resetThreadManually({ userId: actor.id, threadId, fromSession: 2 });
    } finally {
      forgetful.on = false;
    }
    // The author really did write the pinned item, and really had it taken out.
    expect(forgetful.dropped.at(-1)).toContain("the vault is in Lisbon");

    const second = await getHandoff(headers, threadId);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ revision: 2, state: "accepted" });
    const artifact = second.body.artifact as {
      must_preserve: string[];
      remaining_tasks: { task: string }[];
    };
    expect(artifact.must_preserve).toContain("the vault is in Lisbon");
    expect(artifact.remaining_tasks.map((t) => t.task)).toContain("pack the maps");
    expect(second.body.markdown).toContain("the vault is in Lisbon");
    expect((await getHandoff(headers, threadId, 1)).body.state).toBe("superseded");

    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => [s.number, s.trigger])).toEqual([
      [1, "initial"],
      [2, "manual"],
      [3, "manual"],
    ]);
    const after = await sendTurn(actor, threadId, "what do you know?");
    expect(replyText(after.parts)).toContain("Lisbon");
  });

  it("an API write is stored as its author sent it: omitting must_preserve there removes it", async () => {
    const headers = await guestHeaders();
    const key = `pinned-${randomUUID()}`;
    await upsert(headers, {
      key,
      artifact: { goal: "g", state_summary: "s", must_preserve: ["keep the blue folder"] },
    });
    const next = await upsert(headers, { key, artifact: { goal: "g", state_summary: "s2" } });
    expect(next.status).toBe(201);
    expect((next.body.artifact as { must_preserve: string[] }).must_preserve).toEqual([]);
  });
});
