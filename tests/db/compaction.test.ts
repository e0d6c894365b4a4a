import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { listThreadMessages } from "@/db/queries/messages";
import { listSessions } from "@/db/queries/sessions";
import { updateThread } from "@/db/queries/threads";
import { agentProfiles } from "@/db/schema";
import { DEFAULT_DELEGATION } from "@/lib/agents/profiles";
import { createActor, replyText, sendTurn } from "../support/chat";
import { promptTexts, spyModel } from "../support/spy-model";

const saved = { ...process.env };
beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "1200";
});
afterEach(() => {
  process.env = { ...saved };
});

const FILLER =
  "Ordinary chatter about the harbour, the trains, the weather and the long walk along the river";

describe("compaction", () => {
  it("summarizes older messages in place, keeps the tail verbatim and the originals stored", async () => {
    const actor = await createActor();
    const profileId = `compact-${randomUUID()}`;
    await getDb()
      .insert(agentProfiles)
      .values({
        id: profileId,
        userId: actor.id,
        name: "Compacting",
        systemPrompt: "You are a careful assistant.",
        contextStrategy: "compact",
        resetThreshold: 0.9,
        compactThreshold: 0.3,
        // Nobody hands work to it, so the first turn's default agent is offered no handoff tools
        // (their definitions alone would fill this test's small window).
        delegation: { ...DEFAULT_DELEGATION, allowAsHandoffTarget: false },
        // The workspace and plan tools only: in this small window every tool definition counts,
        // and the turns must reach the compaction threshold well before the reset threshold.
        toolsAllow: [
          "list_files",
          "read_file",
          "write_file",
          "edit_file",
          "delete_file",
          "update_plan",
        ],
      });
    const threadId = randomUUID();
    const spy = spyModel();
    const deps = { languageModel: () => spy.model };
    await sendTurn(actor, threadId, "remember the depot opens at six", deps);
    await updateThread({ userId: actor.id, threadId, profile: profileId });

    let compaction: { tokensBefore: number; tokensAfter: number } | null = null;
    for (let i = 0; i < 20 && !compaction; i++) {
      const turn = await sendTurn(actor, threadId, `${FILLER} ${i}`, deps);
      const part = turn.parts.find((p) => p.type === "data-compaction");
      if (part) compaction = part.data as unknown as { tokensBefore: number; tokensAfter: number };
      expect(turn.parts.some((p) => p.type === "data-context-reset")).toBe(false);
    }
    expect(compaction).not.toBeNull();
    expect(compaction?.tokensAfter).toBeLessThan(compaction?.tokensBefore ?? 0);

    // Still one session; the originals are kept, marked compacted; the tail is not.
    expect((await listSessions({ userId: actor.id, threadId })).length).toBe(1);
    const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 200 });
    const compacted = messages.filter((m) => m.compacted);
    expect(compacted.length).toBeGreaterThan(0);
    expect(messages.at(-1)?.compacted).toBe(false);
    expect(compacted[0]?.parts).toEqual([
      { type: "text", text: "remember the depot opens at six" },
    ]);

    // The model now sees the summary instead of the compacted messages, and still knows the fact.
    const after = await sendTurn(actor, threadId, "what do you know?", deps);
    expect(replyText(after.parts)).toContain("the depot opens at six");
    const prompt = promptTexts(spy.calls.filter((c) => c.kind === "stream").at(-1)?.prompt ?? []);
    expect(prompt.find((t) => t.role === "system")?.text).toContain("<compacted-summary>");
    const userTexts = prompt.filter((t) => t.role === "user").map((t) => t.text);
    expect(userTexts).not.toContain("remember the depot opens at six");
  });
});
