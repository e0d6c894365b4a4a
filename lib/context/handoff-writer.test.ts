import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { emptyArtifact } from "@/lib/handoff/artifact";
import { writeHandoffArtifact } from "./handoff-writer";

function answer(text: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: "stop" },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 10, text: 10, reasoning: 0 },
    },
    warnings: [],
  };
}

/** A model that answers each call with the next text in `texts` (the last one repeats). */
function scripted(texts: string[]) {
  const prompts: string[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(JSON.stringify(options.prompt));
      return answer(texts[Math.min(prompts.length - 1, texts.length - 1)] ?? "");
    },
  });
  return { model, prompts };
}

const valid = JSON.stringify({
  goal: "Ship the release",
  state_summary: "Tests are green; the changelog is drafted.",
  completed_work: ["wrote the changelog"],
  remaining_tasks: [{ id: "t1", task: "tag the release" }],
});

const base = {
  system: "You are Baton.",
  messages: [{ role: "user" as const, content: "let's ship it" }],
  previous: null,
  userTexts: ["let's ship it"],
  filesTouched: ["src/release.ts"],
  lastUserRequest: "let's ship it",
};

describe("writeHandoffArtifact", () => {
  it("uses valid structured output as written, plus the mechanical facts", async () => {
    const { model, prompts } = scripted([valid]);
    const result = await writeHandoffArtifact({ ...base, model });
    expect(result.source).toBe("model");
    expect(result.tokens).toBe(20);
    expect(prompts).toHaveLength(1);
    expect(result.artifact.goal).toBe("Ship the release");
    expect(result.artifact.remaining_tasks).toEqual([{ id: "t1", task: "tag the release" }]);
    expect(result.artifact.files_modified).toContain("src/release.ts");
    expect(JSON.stringify(result.artifact)).toContain("let's ship it");
  });

  it("repairs invalid output once, telling the model what was wrong", async () => {
    const { model, prompts } = scripted(['{"goal": 42}', valid]);
    const result = await writeHandoffArtifact({ ...base, model });
    expect(result.source).toBe("repaired");
    // Both calls were paid for, the one whose output did not parse too.
    expect(result.tokens).toBe(40);
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain("was not valid");
    expect(result.artifact.goal).toBe("Ship the release");
    expect(result.failures).toHaveLength(1);
  });

  it("falls back to a mechanical artifact when the repair fails too", async () => {
    const { model, prompts } = scripted(["not json at all", "still {broken"]);
    const previous = {
      ...emptyArtifact("Earlier goal", "earlier state"),
      key_decisions: ["the API is frozen"],
    };
    const result = await writeHandoffArtifact({ ...base, model, previous });
    expect(result.source).toBe("mechanical");
    expect(prompts).toHaveLength(2);
    expect(result.artifact.goal).toBe("Earlier goal");
    expect(result.artifact.key_decisions).toEqual(["the API is frozen"]);
    expect(result.artifact.state_summary).toContain("let's ship it");
  });

  it("falls back when the model call itself throws", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error("provider down");
      },
    });
    const result = await writeHandoffArtifact({ ...base, model });
    expect(result.source).toBe("mechanical");
    expect(result.failures.join(" ")).toContain("provider down");
  });

  it("stops at once when its signal fires, writing nothing (no repair, no mechanical artifact)", async () => {
    const prompts: string[] = [];
    // A model that only ends when its call is aborted.
    const model = new MockLanguageModelV3({
      doGenerate: (options) => {
        prompts.push(JSON.stringify(options.prompt));
        return new Promise((_, reject) => {
          const signal = options.abortSignal;
          if (signal?.aborted) reject(signal.reason);
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
        });
      },
    });
    const controller = new AbortController();
    const writing = writeHandoffArtifact({ ...base, model, abortSignal: controller.signal });
    controller.abort(new Error("cancelled by the user"));
    await expect(writing).rejects.toThrow("cancelled by the user");
    expect(prompts.length).toBeLessThanOrEqual(1);
  });
});
