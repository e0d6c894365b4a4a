import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import {
  estimateMessageTokens,
  estimatePromptTokens,
  estimateTokens,
  estimateTokensHeuristic,
  MESSAGE_OVERHEAD_TOKENS,
  PROMPT_OVERHEAD_TOKENS,
  TOOL_OVERHEAD_TOKENS,
  type ToolDefinition,
  toolDefinitionTokens,
} from "./token-count";

const PROSE =
  "Baton is a self-hostable chat web app for long-running AI work that never hits the context " +
  "wall. When a conversation fills the model's context window, the agent writes a structured " +
  "handoff and a fresh session continues from it, visibly, in the same thread, with nothing the " +
  "user typed lost. Handoffs are first-class records: versioned, queryable and retry-safe.";

const CODE = `export function computeUtilization({ contextTokens, contextWindow }: Args): number {
  if (!(contextWindow > 0) || !Number.isFinite(contextWindow)) return 0;
  if (!(contextTokens > 0)) return 0;
  return contextTokens / contextWindow;
}
const items = messages.filter((m) => m.role !== "tool").map((m, i) => ({ ...m, index: i }));
`;

const opt = { disallowedSpecial: new Set<string>() };

describe("estimateTokens", () => {
  it("counts OpenAI models with the real o200k tokenizer", () => {
    expect(estimateTokens(PROSE, "openai:gpt-4.1")).toBe(countO200k(PROSE));
    expect(estimateTokens(CODE, "openai:gpt-5")).toBe(countO200k(CODE));
    expect(estimateTokens(PROSE, "gpt-4o-2024-08-06")).toBe(countO200k(PROSE));
  });

  it("counts special-token text typed by a user instead of throwing", () => {
    const text = "what does <|endoftext|> mean?";
    expect(estimateTokens(text, "openai:gpt-4.1")).toBe(countO200k(text, opt));
  });

  it("is zero for empty text", () => {
    expect(estimateTokens("", "openai:gpt-4.1")).toBe(0);
    expect(estimateTokens("", "baton/local")).toBe(0);
  });

  it("estimates other models within 15% of the BPE count on English and code", () => {
    for (const sample of [PROSE, CODE, PROSE.repeat(20), CODE.repeat(20)]) {
      const reference = Math.max(countO200k(sample, opt), countCl100k(sample, opt));
      const estimate = estimateTokens(sample, "compatible:llama3.1");
      expect(Math.abs(estimate / reference - 1)).toBeLessThan(0.15);
    }
  });

  it("does much better than chars/4 on CJK text", () => {
    const zh = "交接包含所有事实、决定和未完成的任务，以便下一个会话可以无损地继续工作。".repeat(
      10,
    );
    const reference = countCl100k(zh, opt);
    const estimate = estimateTokensHeuristic(zh);
    expect(Math.abs(estimate / reference - 1)).toBeLessThan(0.15);
    expect(zh.length / 4).toBeLessThan(reference / 2);
  });

  it("counts Claude models higher than the plain estimate (its tokenizer splits finer)", () => {
    const plain = estimateTokensHeuristic(PROSE);
    expect(estimateTokens(PROSE, "anthropic:claude-sonnet-4-5")).toBeGreaterThan(plain);
    expect(estimateTokens(PROSE, "baton/local")).toBe(plain);
  });

  it("grows linearly on large inputs", () => {
    // No timing here (a shared machine makes it noise): 2,000 copies count as 2,000 copies.
    const big = `${PROSE}\n${CODE}`.repeat(2_000); // ~1.3 MB
    const one = estimateTokensHeuristic(`${PROSE}\n${CODE}`);
    const many = estimateTokensHeuristic(big);
    expect(Math.abs(many / (one * 2_000) - 1)).toBeLessThan(0.01);
  });
});

describe("estimatePromptTokens", () => {
  const prompt: LanguageModelV3Prompt = [
    { role: "system", content: "You are Baton." },
    { role: "user", content: [{ type: "text", text: PROSE }] },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool-call", toolCallId: "c1", toolName: "readFile", input: { path: "a.ts" } },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "readFile",
          output: { type: "text", value: CODE },
        },
      ],
    },
  ];

  it("sums message text plus a per-message overhead", () => {
    const id = "openai:gpt-4.1";
    const textOnly =
      countO200k("You are Baton.") +
      countO200k(PROSE) +
      countO200k("Let me look.") +
      countO200k(CODE);
    const total = estimatePromptTokens(prompt, id);
    expect(total).toBeGreaterThan(textOnly + PROMPT_OVERHEAD_TOKENS + 4 * MESSAGE_OVERHEAD_TOKENS);
    // Tool names and the call's JSON input are all that is left: a handful of tokens.
    expect(total).toBeLessThan(
      textOnly + PROMPT_OVERHEAD_TOKENS + 4 * MESSAGE_OVERHEAD_TOKENS + 20,
    );
  });

  it("equals the sum of its messages", () => {
    const id = "baton/local";
    const sum = prompt.reduce((s, m) => s + estimateMessageTokens(m, id), 0);
    expect(estimatePromptTokens(prompt, id)).toBe(sum + PROMPT_OVERHEAD_TOKENS);
  });

  it("counts an image as a bounded fixed cost, not its base64 length", () => {
    const image: LanguageModelV3Prompt = [
      {
        role: "user",
        content: [{ type: "file", mediaType: "image/png", data: "A".repeat(400_000) }],
      },
    ];
    const tokens = estimatePromptTokens(image, "openai:gpt-4.1");
    expect(tokens).toBeGreaterThan(500);
    expect(tokens).toBeLessThan(5_000);
  });

  it("reads inline text files as text", () => {
    const text = PROSE.repeat(5);
    const file: LanguageModelV3Prompt = [
      {
        role: "user",
        content: [
          {
            type: "file",
            mediaType: "text/plain",
            data: Buffer.from(text, "utf8").toString("base64"),
          },
        ],
      },
    ];
    expect(estimatePromptTokens(file, "openai:gpt-4.1")).toBe(
      countO200k(text) + MESSAGE_OVERHEAD_TOKENS + PROMPT_OVERHEAD_TOKENS,
    );
  });
});

describe("toolDefinitionTokens", () => {
  const readFile: ToolDefinition = {
    type: "function",
    name: "read_file",
    description: "Read a workspace file with line numbers.",
    inputSchema: {
      type: "object",
      properties: { path: { type: "string" }, startLine: { type: "integer", minimum: 1 } },
      required: ["path"],
    },
  };

  it("counts each tool's name, description and JSON schema, plus its framing", () => {
    const model = "openai:gpt-4.1";
    expect(toolDefinitionTokens([readFile], model)).toBe(
      TOOL_OVERHEAD_TOKENS +
        countO200k("read_file") +
        countO200k("Read a workspace file with line numbers.") +
        countO200k(JSON.stringify(readFile.type === "function" ? readFile.inputSchema : null)),
    );
  });

  it("adds up over tools, counts a provider tool's id and arguments, and is 0 without tools", () => {
    const provider: ToolDefinition = {
      type: "provider",
      name: "web_search",
      id: "openai.web_search",
      args: { searchContextSize: "high" },
    };
    const one = toolDefinitionTokens([readFile], "baton/local");
    const two = toolDefinitionTokens([readFile, provider], "baton/local");
    expect(two - one).toBe(
      TOOL_OVERHEAD_TOKENS +
        estimateTokens("web_search", "baton/local") +
        estimateTokens("openai.web_search", "baton/local") +
        estimateTokens(JSON.stringify(provider.args), "baton/local"),
    );
    expect(toolDefinitionTokens([], "baton/local")).toBe(0);
    expect(toolDefinitionTokens(undefined, "baton/local")).toBe(0);
    // Anthropic's tokenizer factor applies to definitions like any other text.
    expect(toolDefinitionTokens([readFile], "anthropic:claude-sonnet-4")).toBeGreaterThan(
      toolDefinitionTokens([readFile], "baton/local"),
    );
  });
});
