import { randomUUID } from "node:crypto";
import type { LanguageModelV3, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getAheadDraft } from "@/db/queries/ahead-drafts";
import { getCurrentHandoff } from "@/db/queries/handoff-reads";
import { listSessions } from "@/db/queries/sessions";
import type { ChatSession } from "@/db/schema";
import type { Actor } from "@/lib/auth/server";
import type { ContextResetPart } from "@/lib/chat/types";
import { isDraftingAhead, settleDraftsAhead } from "@/lib/context/draft-ahead";
import { createOfflineModel } from "@/lib/demo-model/model";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { CARRIED_OVER_OPEN_TAG } from "@/lib/handoff/brief";
import {
  createActor,
  parseSse,
  type SsePart,
  sendTurn,
  startTurn,
  waitForStoredReplies,
} from "../support/chat";
import { SECRET_CASES } from "../support/secret-corpus";
import { promptTexts, spyModel } from "../support/spy-model";

const saved = { ...process.env };

beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "1550";
  // Draft at 0.75, reset at 0.8: the session reaches its reset within a turn or two of the draft,
  // before the messages after it (10% of the window) would make it stale and draft again.
  process.env.BATON_DRAFT_THRESHOLD = "0.75";
});

afterEach(async () => {
  await settleDraftsAhead();
  process.env = { ...saved };
});

const FILLER =
  "Here is some ordinary chatter about the weather, the harbour, the trains and the long walk " +
  "along the river that we took yesterday afternoon before the rain started again";
/** A message long enough to take a session from the drafting window past the reset threshold. */
const PUSH = `${FILLER}, and then ${FILLER}.`;

const PLAN =
  "plan: outline the guide; draft the intro; list the tools; write the examples; review the text; publish the guide";

/** Whether a prompt carries a brief: a session after the first. */
function hasBrief(prompt: LanguageModelV3Prompt): boolean {
  return promptTexts(prompt).some(
    (t) => t.role === "system" && t.text.includes(CARRIED_OVER_OPEN_TAG),
  );
}

/** The offline model, holding every handoff (structured output) call until released. */
function gatedWriter() {
  const inner = createOfflineModel();
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const prompts: LanguageModelV3Prompt[] = [];
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doGenerate: async (options) => {
      if (options.responseFormat?.type === "json") {
        prompts.push(options.prompt);
        await gate;
      }
      return inner.doGenerate(options);
    },
    doStream: (options) => inner.doStream(options),
  };
  return { model, release, prompts };
}

/** Reads the stream until its text so far contains `marker` (null: to its end). */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  marker: string | null,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
    if (marker !== null && text.includes(marker)) return text;
  }
}

/**
 * Handoff calls over session 1: their prompt holds its first user message as a message (a later
 * session has it only inside its carried-over brief, in the system prompt).
 */
function sessionOneCalls(
  calls: readonly { json: boolean; prompt: LanguageModelV3Prompt }[],
  first: string,
) {
  return calls.filter(
    (c) => c.json && promptTexts(c.prompt).some((t) => t.role === "user" && t.text === first),
  ).length;
}

function resetEvents(parts: SsePart[]): ContextResetPart[] {
  return parts
    .filter((p) => p.type === "data-context-reset")
    .map((p) => p.data as unknown as ContextResetPart);
}

async function firstSession(actor: Actor, threadId: string): Promise<ChatSession> {
  const [session] = await listSessions({ userId: actor.id, threadId });
  if (!session) throw new Error("no session");
  return session;
}

/** Filler turns until the session has a draft ahead (each draft awaited), with no reset. */
async function fillUntilDrafted(
  actor: Actor,
  threadId: string,
  deps: Parameters<typeof sendTurn>[3],
) {
  for (let i = 0; i < 30; i++) {
    const turn = await sendTurn(actor, threadId, `${FILLER} (${i})`, deps);
    expect(resetEvents(turn.parts)).toEqual([]);
    await settleDraftsAhead();
    const session = await firstSession(actor, threadId);
    const draft = await getAheadDraft({ userId: actor.id, sessionId: session.id });
    if (draft) return { draft, session };
  }
  throw new Error("no draft was written");
}

describe("drafting the handoff ahead", () => {
  it("writes the handoff in the background past the draft threshold and the reset uses it", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const spy = spyModel();
    const deps = { languageModel: () => spy.model };
    const writerCalls = () => sessionOneCalls(spy.calls, "remember the launch code is 4242");

    await sendTurn(actor, threadId, "remember the launch code is 4242", deps);
    const { draft, session } = await fillUntilDrafted(actor, threadId, deps);
    expect(writerCalls()).toBe(1);
    expect(draft).toMatchObject({ source: "model", modelId: "baton/local", threadId });
    expect(draft.writerTokens).toBeGreaterThan(0);
    const drafted = handoffArtifactSchema.parse(draft.artifact);
    expect(drafted.must_preserve).toContain("the launch code is 4242");
    expect(drafted.key_decisions).toEqual([]);

    // Said after the draft: only the mechanical merge can carry it.
    await sendTurn(actor, threadId, "decide use Postgres", deps);
    let reset: SsePart[] = [];
    let trigger = "";
    for (let i = 0; i < 5 && reset.length === 0; i++) {
      trigger = `${FILLER} (after ${i})`;
      reset = (await sendTurn(actor, threadId, trigger, deps)).parts;
      await settleDraftsAhead();
      if (resetEvents(reset).length > 0) break;
      const still = await getAheadDraft({ userId: actor.id, sessionId: session.id });
      expect(still?.throughSeq).toBe(draft.throughSeq);
    }
    expect(resetEvents(reset).map((p) => p.event)).toEqual([
      "reset_starting",
      "input_blocked",
      "reset_complete",
    ]);
    // The reset asked the model nothing: the one handoff call over session 1 is the draft's.
    expect(writerCalls()).toBe(1);

    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => s.number)).toEqual([1, 2]);
    expect(sessions[1]?.resetStats).toMatchObject({
      source: "model",
      writerTokens: draft.writerTokens,
    });
    const handoff = await getCurrentHandoff({ ownerId: actor.id, key: threadId });
    const artifact = handoffArtifactSchema.parse(handoff?.artifact);
    // The draft's own writing (its summary names the latest message it saw, not the trigger)...
    expect(artifact.state_summary).toBe(drafted.state_summary);
    expect(artifact.must_preserve).toContain("the launch code is 4242");
    // ...with what came after it.
    expect(artifact.key_decisions).toEqual(["use Postgres"]);
    expect(artifact.in_progress).toContain(`Last user request: ${trigger}`);
    // Taken by the reset.
    expect(await getAheadDraft({ userId: actor.id, sessionId: session.id })).toBeNull();

    // And the next session knows the decision.
    const after = await sendTurn(actor, threadId, "what do you know?", deps);
    const reply = after.parts
      .filter((p) => p.type === "text-delta")
      .map((p) => p.delta)
      .join("");
    expect(reply).toContain("use Postgres");
    expect(reply).toContain("4242");
  });

  it("a reset waits for the draft still being written instead of asking the model again", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const gated = gatedWriter();
    const deps = { languageModel: () => gated.model };
    const writerCalls = () =>
      sessionOneCalls(
        gated.prompts.map((prompt) => ({ json: true, prompt })),
        "remember the vault is in Lisbon",
      );

    await sendTurn(actor, threadId, "remember the vault is in Lisbon", deps);
    const session = await firstSession(actor, threadId);
    for (let i = 0; i < 30 && !isDraftingAhead(session.id); i++) {
      const turn = await sendTurn(actor, threadId, `${FILLER} (${i})`, deps);
      expect(resetEvents(turn.parts)).toEqual([]);
    }
    expect(isDraftingAhead(session.id)).toBe(true);

    const { response } = await startTurn(actor, threadId, `decide use Postgres. ${PUSH}`, deps);
    const reader = response.body?.getReader();
    if (!reader) throw new Error("no body");
    let body = await readUntil(reader, "input_blocked");
    // The reset is running and the draft is still held at the model: one handoff call so far.
    expect(writerCalls()).toBe(1);
    expect(isDraftingAhead(session.id)).toBe(true);
    gated.release();
    body += await readUntil(reader, null);
    await waitForStoredReplies(actor, threadId);

    expect(resetEvents(parseSse(body)).at(-1)?.event).toBe("reset_complete");
    expect(writerCalls()).toBe(1);
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions[1]?.resetStats?.source).toBe("model");
    expect(sessions[1]?.resetStats?.writerTokens).toBeGreaterThan(0);
    const handoff = await getCurrentHandoff({ ownerId: actor.id, key: threadId });
    const artifact = handoffArtifactSchema.parse(handoff?.artifact);
    expect(artifact.must_preserve).toContain("the vault is in Lisbon");
    expect(artifact.key_decisions).toContain("use Postgres");
  });

  it("drafts between two steps of a run, from the reply as streamed so far", async () => {
    process.env.BATON_LOCAL_CONTEXT_WINDOW = "4096";
    delete process.env.BATON_DRAFT_THRESHOLD;
    const actor = await createActor();
    const threadId = randomUUID();
    const inner = spyModel();
    // Each handoff call over session 1, tagged with whether it is a draft (one is in flight then).
    const calls: { drafting: boolean; toolResults: number }[] = [];
    let sessionOne = "";
    const model: LanguageModelV3 = {
      ...inner.model,
      doGenerate: (options) => {
        if (options.responseFormat?.type === "json" && !hasBrief(options.prompt)) {
          calls.push({
            drafting: isDraftingAhead(sessionOne),
            toolResults: options.prompt.filter((m) => m.role === "tool").length,
          });
        }
        return inner.model.doGenerate(options);
      },
    };
    const deps = { languageModel: () => model };
    await sendTurn(actor, threadId, PLAN, deps);
    sessionOne = (await firstSession(actor, threadId)).id;

    const run = await sendTurn(actor, threadId, "work through the plan", deps);
    expect(
      resetEvents(run.parts)
        .slice(0, 3)
        .map((e) => e.event),
    ).toEqual(["reset_starting", "input_blocked", "reset_complete"]);
    // Written while the run went on, and it saw the run's tool steps (the stored row lags).
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.drafting)).toBe(true);
    expect(calls[0]?.toolResults).toBeGreaterThan(0);
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions[1]?.resetStats?.source).toBe("model");
  });

  it("stores the draft masked", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const [secret] = SECRET_CASES;
    if (!secret) throw new Error("no secret case");
    await sendTurn(actor, threadId, `remember ${secret.text}`);
    const { draft } = await fillUntilDrafted(actor, threadId, {});
    const stored = JSON.stringify(draft.artifact);
    expect(stored).not.toContain(secret.secret);
    expect(stored).toContain("my aws secret key is");
  });

  it("writes no draft when the profile's draft threshold is off", async () => {
    process.env.BATON_DRAFT_THRESHOLD = "off";
    const actor = await createActor();
    const threadId = randomUUID();
    const spy = spyModel();
    const deps = { languageModel: () => spy.model };
    await sendTurn(actor, threadId, "decide use Postgres", deps);
    const session = await firstSession(actor, threadId);
    let resetAt = -1;
    for (let i = 0; i < 30 && resetAt === -1; i++) {
      const turn = await sendTurn(actor, threadId, `${FILLER} (${i})`, deps);
      await settleDraftsAhead();
      if (resetEvents(turn.parts).length > 0) resetAt = i;
      else expect(await getAheadDraft({ userId: actor.id, sessionId: session.id })).toBeNull();
    }
    expect(resetAt).toBeGreaterThan(0);
    // The reset's own call is the only handoff call.
    expect(spy.calls.filter((c) => c.json).length).toBe(1);
    const handoff = await getCurrentHandoff({ ownerId: actor.id, key: threadId });
    expect(handoffArtifactSchema.parse(handoff?.artifact).key_decisions).toEqual(["use Postgres"]);
  });
});
