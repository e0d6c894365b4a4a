import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { generateText, type ModelMessage, Output, streamText } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { estimatePromptTokens, estimateTokens } from "@/lib/ai/token-count";
import { COMPACT_INSTRUCTION, HANDOFF_INSTRUCTION } from "@/lib/context/prompts";
import { type HandoffArtifact, handoffArtifactSchema } from "@/lib/handoff/artifact";
import { renderCarriedOverBlock } from "@/lib/handoff/brief";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import {
  createOfflineModel,
  OFFLINE_COMPACT_MARKER,
  OFFLINE_MODEL_NOTICE,
  splitWords,
} from "./model";

beforeEach(() => {
  vi.stubEnv("BATON_LOCAL_DELAY_MS", "0");
  vi.stubEnv("BATON_LOCAL_HANDOFF_DELAY_MS", "0");
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const SYSTEM = "You are Baton, a helpful assistant.";

function user(text: string): LanguageModelV3Prompt[number] {
  return { role: "user", content: [{ type: "text", text }] };
}
function assistant(text: string): LanguageModelV3Prompt[number] {
  return { role: "assistant", content: [{ type: "text", text }] };
}
/** A conversation where every user turn got some reply, ending with the user's last message. */
function chat(...userTexts: string[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [{ role: "system", content: SYSTEM }];
  userTexts.forEach((text, i) => {
    if (i > 0) prompt.push(assistant("ok"));
    prompt.push(user(text));
  });
  return prompt;
}

async function reply(
  prompt: LanguageModelV3Prompt,
  extra: Partial<LanguageModelV3CallOptions> = {},
) {
  const result = await createOfflineModel().doGenerate({ prompt, ...extra });
  const first = result.content[0];
  if (first?.type !== "text") throw new Error("expected text content");
  return first.text;
}

function artifact(overrides: Partial<HandoffArtifact>): HandoffArtifact {
  return handoffArtifactSchema.parse({ goal: "", state_summary: "", ...overrides });
}

const BRIEF = artifact({
  goal: "Ship the billing page",
  state_summary: "Pricing table done.",
  confirmed_facts: ["the staging URL is staging.example.com"],
  must_preserve: ["never email customers on Sundays"],
  key_decisions: ["use Stripe Checkout"],
  remaining_tasks: [
    { id: "t1", task: "write the invoice template" },
    { id: "t3", task: "add VAT rates" },
  ],
  completed_work: ["set up the Stripe account"],
});

function briefMessage(a: HandoffArtifact): LanguageModelV3Prompt[number] {
  const block = renderCarriedOverBlock(renderHandoffMarkdown(a), { revision: 1, sessionNumber: 1 });
  return { role: "system", content: block };
}

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const reader = stream.getReader();
  const parts: T[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    parts.push(next.value);
  }
  return parts;
}

describe("offline model: identity", () => {
  it("is a V3 model named baton/local", () => {
    const model = createOfflineModel();
    expect(model.specificationVersion).toBe("v3");
    expect(model.provider).toBe("baton");
    expect(model.modelId).toBe("local");
  });

  it("has a notice that says it is a demo and how to connect a real model", () => {
    expect(OFFLINE_MODEL_NOTICE).toMatch(/offline demo model/i);
    for (const name of [
      "OPENAI_API_KEY",
      "ANTHROPIC_API_KEY",
      "OPENAI_COMPATIBLE_BASE_URL",
      "OPENAI_COMPATIBLE_MODELS",
    ]) {
      expect(OFFLINE_MODEL_NOTICE).toContain(name);
    }
    expect(OFFLINE_MODEL_NOTICE).toMatch(/restart/i);
  });
});

describe("offline model: vocabulary", () => {
  it("is a pure function of the prompt", async () => {
    const prompt = chat("remember the sky is green", "todo paint the fence", "what do you know?");
    const a = await reply(prompt);
    const b = await reply(structuredClone(prompt));
    expect(a).toBe(b);
    const streamed = async () =>
      (await readAll((await createOfflineModel().doStream({ prompt })).stream))
        .flatMap((p) => (p.type === "text-delta" ? [p.delta] : []))
        .join("");
    expect(await streamed()).toBe(a);
    expect(await streamed()).toBe(a);
  });

  it("remember <fact> confirms the fact", async () => {
    expect(await reply(chat("Sure. REMEMBER that the deploy key is in Vault."))).toBe(
      "Noted — I'll remember that the deploy key is in Vault.",
    );
  });

  it("decide <decision> confirms the decision", async () => {
    expect(await reply(chat("ok. decide: we ship on Fridays"))).toBe(
      "Decision recorded: we ship on Fridays.",
    );
  });

  it("reads a command only where it starts a line or a sentence", async () => {
    expect(await reply(chat("Please remember that the deploy key is in Vault."))).toMatch(
      /^You said:/,
    );
    expect(await reply(chat("ok, decide: we ship on Fridays"))).toMatch(/^You said:/);
  });

  it("answers every command of a message, in order", async () => {
    expect(await reply(chat("decide use Postgres. todo write the migration"))).toBe(
      "Decision recorded: use Postgres.\nAdded task t1: write the migration.",
    );
  });

  it("todo <task> confirms with id t(N+1)", async () => {
    expect(await reply(chat("todo write the release notes"))).toBe(
      "Added task t1: write the release notes.",
    );
    expect(await reply(chat("todo a", "todo b", "Todo: c! and more"))).toBe("Added task t3: c.");
  });

  it("done <tN> and done <text> move the task to done", async () => {
    expect(await reply(chat("todo write docs", "todo fix login", "done t2"))).toBe(
      "Marked t2 as done: fix login.",
    );
    expect(await reply(chat("todo write docs", "todo fix login", "done write docs"))).toBe(
      "Marked t1 as done: write docs.",
    );
    expect(await reply(chat("todo write docs", "done t7"))).toBe(
      "I don't see a task t7 in this conversation.",
    );
  });

  it("needs an argument: a bare keyword is an ordinary message", async () => {
    expect(await reply(chat("I'm done."))).toMatch(/^You said: “I'm done\.”/);
    expect(await reply(chat("done: shipped the hotfix"))).toBe(
      "Marked as done: shipped the hotfix.",
    );
  });

  it("counts done tasks when numbering new ones", async () => {
    expect(await reply(chat("todo a", "done t1", "todo b"))).toBe("Added task t2: b.");
  });

  it("what do you know? lists facts, decisions, open and done tasks under headings", async () => {
    const text = await reply(
      chat(
        "remember the API lives at /v2",
        "decide use Postgres",
        "todo write tests",
        "todo update README",
        "done t1",
        "hello there",
        "What do you know?",
      ),
    );
    expect(text).toContain("**Facts**\n- the API lives at /v2");
    expect(text).toContain("**Decisions**\n- use Postgres");
    expect(text).toContain("**Open tasks**\n- t2: update README");
    expect(text).toContain("**Done tasks**\n- t1: write tests");
    expect(text).not.toContain("hello there");
  });

  it("anything else gets a short reflection", async () => {
    const text = await reply(chat("The weather is nice today"));
    expect(text).toMatch(/^You said: “The weather is nice today” \(5 words\)\./);
    expect(text.length).toBeLessThan(200);
  });

  it("answers an attachment-only message instead of repeating its last answer", async () => {
    const prompt = chat("todo a");
    prompt.push(assistant("Added task t1: a."), {
      role: "user",
      content: [{ type: "file", mediaType: "image/png", data: "iVBORw0KGgo=" }],
    });
    expect(await reply(prompt)).toMatch(/^I can only read text/);
  });

  it("knows nothing that is not in its prompt", async () => {
    const text = await reply(chat("what do you know?"));
    expect(text).toMatch(/don't know anything yet/);
  });

  it("ignores assistant text as a source of facts", async () => {
    const prompt: LanguageModelV3Prompt = [
      { role: "system", content: SYSTEM },
      user("hi"),
      assistant("remember the moon is cheese"),
      user("what do you know?"),
    ];
    expect(await reply(prompt)).not.toContain("cheese");
  });
});

describe("offline model: carried-over brief", () => {
  it("reads facts, decisions and tasks from a brief in a system message", async () => {
    const prompt: LanguageModelV3Prompt = [
      { role: "system", content: SYSTEM },
      briefMessage(BRIEF),
      user("what do you know?"),
    ];
    const text = await reply(prompt);
    expect(text).toContain("- the staging URL is staging.example.com");
    expect(text).toContain("- never email customers on Sundays");
    expect(text).toContain("**Decisions**\n- use Stripe Checkout");
    expect(text).toContain("- t1: write the invoice template");
    expect(text).toContain("- t3: add VAT rates");
    expect(text).toContain("**Done tasks**\n- set up the Stripe account");
  });

  it("reads a brief inside a user message without treating it as the user's words", async () => {
    const block = renderCarriedOverBlock(renderHandoffMarkdown(BRIEF), {
      revision: 2,
      sessionNumber: 2,
    });
    const prompt: LanguageModelV3Prompt = [
      { role: "system", content: SYSTEM },
      user(`${block}\n\nwhat do you know?`),
    ];
    const text = await reply(prompt);
    expect(text).toContain("- use Stripe Checkout");
    expect(text).toContain("- t3: add VAT rates");
  });

  it("numbers new tasks after the carried ones and can close carried tasks", async () => {
    const base: LanguageModelV3Prompt = [{ role: "system", content: SYSTEM }, briefMessage(BRIEF)];
    // 2 open + 1 done carried → t4.
    expect(await reply([...base, user("todo email the accountant")])).toBe(
      "Added task t4: email the accountant.",
    );
    expect(await reply([...base, user("done t3")])).toBe("Marked t3 as done: add VAT rates.");
  });
});

describe("offline model: structured output (the handoff)", () => {
  const messages: ModelMessage[] = [
    { role: "user", content: "Let's plan the launch" },
    { role: "assistant", content: "ok" },
    { role: "user", content: "remember the launch is on May 3" },
    { role: "assistant", content: "ok" },
    { role: "user", content: "decide: announce on the blog first" },
    { role: "assistant", content: "ok" },
    { role: "user", content: "todo draft the announcement" },
    { role: "assistant", content: "ok" },
    { role: "user", content: "todo book the venue" },
    { role: "assistant", content: "ok" },
    { role: "user", content: "done t2" },
    { role: "assistant", content: "ok" },
    { role: "user", content: "the budget talk went well" },
    { role: "assistant", content: "ok" },
    { role: "user", content: "note the venue holds 200 people" },
    { role: "assistant", content: "ok" },
    // What lib/context's handoff writer appends: the app's request, not conversation.
    { role: "user", content: HANDOFF_INSTRUCTION },
  ];

  it("returns the artifact built from its prompt through generateText + Output.object", async () => {
    const { output } = await generateText({
      model: createOfflineModel(),
      system: SYSTEM,
      messages,
      output: Output.object({ schema: handoffArtifactSchema }),
    });
    const everything = JSON.stringify(output);
    expect(everything).not.toContain("Write a handoff");
    expect(output.goal).toBe("Let's plan the launch");
    // `remember` pins a fact; `note` records one unpinned.
    expect(output.confirmed_facts).toEqual(["the venue holds 200 people"]);
    expect(output.must_preserve).toEqual(["the launch is on May 3"]);
    expect(output.key_decisions).toEqual(["announce on the blog first"]);
    expect(output.remaining_tasks).toEqual([{ id: "t1", task: "draft the announcement" }]);
    // A closed todo keeps its id, as the explicit markers' merge records it.
    expect(output.completed_work).toEqual(["t2: book the venue"]);
    expect(output.state_summary).toContain("the budget talk went well");
    expect(output.last_completed_step).toContain("the budget talk went well");
  });

  it("merges with the carried brief so chained resets keep everything", async () => {
    const { output } = await generateText({
      model: createOfflineModel(),
      messages: [
        { role: "system", content: briefMessage(BRIEF).content as string },
        { role: "user", content: "remember invoices are PDF" },
        { role: "assistant", content: "ok" },
        { role: "user", content: "done t1" },
        { role: "assistant", content: "ok" },
        { role: "user", content: HANDOFF_INSTRUCTION },
      ],
      allowSystemInMessages: true,
      output: Output.object({ schema: handoffArtifactSchema }),
    });
    expect(output.goal).toBe("Ship the billing page");
    expect(output.confirmed_facts).toEqual(["the staging URL is staging.example.com"]);
    expect(output.must_preserve).toEqual(["never email customers on Sundays", "invoices are PDF"]);
    expect(output.key_decisions).toEqual(["use Stripe Checkout"]);
    expect(output.remaining_tasks).toEqual([{ id: "t3", task: "add VAT rates" }]);
    expect(output.completed_work).toEqual([
      "set up the Stripe account",
      "t1: write the invoice template",
    ]);
    // The summary is written afresh for this point, never nesting the previous one.
    expect(output.state_summary).not.toContain("Pricing table done.");
    expect(output.state_summary).toContain("1 open task");
  });

  it("streams the artifact too (streamText + Output.object)", async () => {
    const result = streamText({
      model: createOfflineModel(),
      messages,
      output: Output.object({ schema: handoffArtifactSchema }),
    });
    const output = await result.output;
    expect(output.key_decisions).toEqual(["announce on the blog first"]);
  });

  it("waits BATON_LOCAL_HANDOFF_DELAY_MS before answering, read at call time", async () => {
    vi.stubEnv("BATON_LOCAL_HANDOFF_DELAY_MS", "80");
    const started = performance.now();
    await createOfflineModel().doGenerate({ prompt: chat("hi"), responseFormat: { type: "json" } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it("stops waiting for the handoff when aborted", async () => {
    vi.stubEnv("BATON_LOCAL_HANDOFF_DELAY_MS", "5000");
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 30);
    await expect(
      createOfflineModel().doGenerate({
        prompt: chat("remember x"),
        responseFormat: { type: "json" },
        abortSignal: controller.signal,
      }),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("offline model: compaction", () => {
  it("summarises facts, decisions and tasks when asked with the marker", async () => {
    const prompt = chat(
      "remember the port is 8080",
      "todo rotate keys",
      "how is it going",
      "hello",
    );
    prompt.unshift({ role: "system", content: `Summarise. ${OFFLINE_COMPACT_MARKER}` });
    const summary = await reply(prompt);
    expect(summary).toContain("- the port is 8080");
    expect(summary).toContain("- t1: rotate keys");
    expect(summary).toMatch(/Other messages \(2\): “how is it going”; “hello”/);
  });

  it("recognises the app's compaction instruction in a user message too", async () => {
    const prompt = chat("remember the port is 8080", COMPACT_INSTRUCTION);
    const summary = await reply(prompt);
    expect(summary).toContain("- the port is 8080");
    expect(summary).not.toContain("Summarize the conversation");
  });

  it("reads its own summary back, so compaction loses no facts", async () => {
    const compactPrompt = chat("remember the port is 8080", "decide use nginx", "todo rotate keys");
    compactPrompt.unshift({ role: "system", content: OFFLINE_COMPACT_MARKER });
    const summary = await reply(compactPrompt);
    const after = await reply([
      { role: "system", content: SYSTEM },
      { role: "system", content: `Earlier in this session:\n${summary}` },
      user("todo renew certificates"),
    ]);
    expect(after).toBe("Added task t2: renew certificates.");
    const known = await reply([
      { role: "system", content: `Earlier in this session:\n${summary}` },
      user("what do you know?"),
    ]);
    expect(known).toContain("- the port is 8080");
    expect(known).toContain("- use nginx");
    expect(known).toContain("- t1: rotate keys");
  });
});

describe("offline model: streaming", () => {
  it("streams one word per delta through streamText", async () => {
    const result = streamText({
      model: createOfflineModel(),
      system: SYSTEM,
      prompt: "remember the cat is called Miso",
    });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThanOrEqual(3);
    expect(deltas.join("")).toBe("Noted — I'll remember that the cat is called Miso.");
    for (const delta of deltas) expect(delta.trim().split(/\s+/)).toHaveLength(1);
  });

  it("emits text-start, deltas, text-end and finish, with a fresh stream per call", async () => {
    const model = createOfflineModel();
    const options = { prompt: chat("hello") };
    const first = await model.doStream(options);
    const second = await model.doStream(options);
    expect(first.stream).not.toBe(second.stream);
    const parts = await readAll(first.stream);
    const types = parts.map((p) => p.type);
    expect(types.slice(0, 3)).toEqual(["stream-start", "response-metadata", "text-start"]);
    expect(types.slice(-2)).toEqual(["text-end", "finish"]);
    expect(await readAll(second.stream)).toEqual(parts);
  });

  it("waits BATON_LOCAL_DELAY_MS per word, read at call time", async () => {
    vi.stubEnv("BATON_LOCAL_DELAY_MS", "20");
    const started = performance.now();
    const { stream } = await createOfflineModel().doStream({ prompt: chat("one two three four") });
    const deltas = (await readAll(stream)).filter((p) => p.type === "text-delta");
    expect(performance.now() - started).toBeGreaterThanOrEqual(deltas.length * 20 - 5);
  });

  it.each([
    ["no reason", undefined],
    ["a string reason", "user pressed stop"],
  ])("stops promptly on abort (%s) and errors the stream with an AbortError", async (_, reason) => {
    vi.stubEnv("BATON_LOCAL_DELAY_MS", "300");
    const controller = new AbortController();
    const { stream } = await createOfflineModel().doStream({
      prompt: chat("remember a fairly long fact with many words in it to stream slowly"),
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    const seen: LanguageModelV3StreamPart[] = [];
    while (!seen.some((p) => p.type === "text-delta")) {
      const { value } = await reader.read();
      if (value) seen.push(value);
    }
    const started = performance.now();
    controller.abort(reason);
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
    expect(performance.now() - started).toBeLessThan(150);
  });

  it("ends a streamText call with an abort part, as real providers do", async () => {
    vi.stubEnv("BATON_LOCAL_DELAY_MS", "30");
    const controller = new AbortController();
    const result = streamText({
      model: createOfflineModel(),
      prompt: "this is a message with quite a lot of words so that it streams for a while",
      abortSignal: controller.signal,
    });
    const types: string[] = [];
    let deltas = 0;
    for await (const part of result.fullStream) {
      types.push(part.type);
      if (part.type === "text-delta" && ++deltas === 2) controller.abort();
    }
    expect(types.at(-1)).toBe("abort");
    expect(types).not.toContain("error");
    expect(deltas).toBe(2);
  });

  it("rejects at once when called with an aborted signal", async () => {
    const signal = AbortSignal.abort();
    await expect(
      createOfflineModel().doStream({ prompt: chat("hi"), abortSignal: signal }),
    ).rejects.toMatchObject({ name: "AbortError" });
  });

  it("splits text into words keeping the whitespace that follows each", () => {
    expect(splitWords("a  b\nc ")).toEqual(["a  ", "b\n", "c "]);
    expect(splitWords(" lead")).toEqual([" lead"]);
    expect(splitWords("")).toEqual([]);
  });
});

describe("offline model: usage", () => {
  it("reports input tokens from the app's estimator and output tokens from the text", async () => {
    const prompt = chat("remember the deploy key is in Vault", "what do you know?");
    const result = await createOfflineModel().doGenerate({ prompt });
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    expect(result.usage.inputTokens.total).toBe(estimatePromptTokens(prompt, "baton/local"));
    expect(result.usage.outputTokens.total).toBe(estimateTokens(text, "baton/local"));
    expect(result.finishReason.unified).toBe("stop");
  });

  it("surfaces as LanguageModelUsage through generateText and streamText", async () => {
    const generated = await generateText({ model: createOfflineModel(), prompt: "hello world" });
    const expected = estimatePromptTokens([user("hello world")], "baton/local");
    expect(generated.usage.inputTokens).toBe(expected);
    expect(generated.usage.outputTokens).toBe(estimateTokens(generated.text, "baton/local"));
    expect(generated.finishReason).toBe("stop");

    const streamed = streamText({ model: createOfflineModel(), prompt: "hello world" });
    expect((await streamed.usage).inputTokens).toBe(expected);
  });
});
