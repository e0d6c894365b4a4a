// Token accounting for context utilization (docs/context-engine.md): real BPE (o200k) for OpenAI
// models, a calibrated single-pass estimate for everyone else. Both are O(text) and light on
// allocation.
import type {
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ProviderTool,
} from "@ai-sdk/provider";
// The encoding-specific entry loads only the o200k ranks (~2.4 MB), not every encoding.
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { providerOf } from "./registry";

/*
 * OpenAI chat format cost per message (role and separators) plus the tokens that prime the
 * reply; OpenAI's cookbook counts 3 + 3. We round the per-message cost up to 4 so tool and
 * name fields that we do not model individually are covered.
 */
export const MESSAGE_OVERHEAD_TOKENS = 4;
export const PROMPT_OVERHEAD_TOKENS = 3;
/**
 * Framing per tool definition (the wrapper object or namespace a provider renders each function
 * in, beyond its name, description and schema text).
 */
export const TOOL_OVERHEAD_TOKENS = 8;
/** Anthropic's documented upper bound for one image (≈1.15 megapixels / 750). */
const IMAGE_PART_TOKENS = 1_600;

// Treat user text as text: `<|endoftext|>` typed in a chat must be counted, not thrown on.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

// Bare ids the registry would also place under openai (`gpt-4.1-2025-04-14`, `o3-mini`).
const BARE_OPENAI = /^(?:gpt-|chatgpt-|o\d)/i;

function usesOpenAiTokenizer(modelId: string): boolean {
  const provider = providerOf(modelId);
  return provider === "openai" || (provider === undefined && BARE_OPENAI.test(modelId));
}

/*
 * Calibration of the heuristic (scratch script, not shipped): least squares, weighting every
 * sample equally, of per-class counts against max(o200k, cl100k) from gpt-tokenizer over
 * English prose (TypeScript LICENSE, package READMEs, the ai docs), TypeScript source (ai's
 * stream-text.ts and chat.ts, @tanstack/virtual-core), JSON, log lines, chat-style commands,
 * and German/Russian/Chinese/Japanese sentences. Result: within ±8% on English, code, JSON and
 * logs (chars/3.6 was off by −35%…+46% on the same set), Russian/CJK within ±4% of cl100k,
 * German ~20% under cl100k (umlauts split words). max(o200k, cl100k) is deliberately the
 * target: Llama 3, Qwen and Gemini vocabularies count close to cl100k, rarely below o200k.
 */
const PER_WORD = 1.0; // a run of ASCII letters: common words are one token with their space
const PER_LONG_WORD_LETTER = 0.22; // letters past the 6th split into extra pieces
const PER_DIGIT_GROUP = 1.35; // BPE splits digits into groups of ≤3
const PER_PUNCTUATION = 0.38; // frequent pairs like `);` `=>` `://` merge
const PER_WHITESPACE_RUN = 1.65; // newlines and indentation (a single space is free)
const PER_CJK_CHAR = 1.06;
const PER_OTHER_NON_ASCII = 0.46; // accented Latin, Cyrillic, Greek, emoji halves…

/*
 * Claude's tokenizer splits the same text into more tokens than o200k: published comparisons
 * against GPT-4o report ~16% more for English and ~30% for code. Overestimating only resets a
 * little early; underestimating overflows the window, so we take a value inside that range.
 */
const ANTHROPIC_FACTOR = 1.2;

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isCjk(c: number): boolean {
  return (
    (c >= 0x3000 && c <= 0x30ff) || // CJK punctuation, Hiragana, Katakana
    (c >= 0x3400 && c <= 0x9fff) || // CJK ideographs
    (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
    (c >= 0xff00 && c <= 0xffef) // full-width forms
  );
}

/** The calibrated estimate: one pass over UTF-16 code units, no allocation. */
export function estimateTokensHeuristic(text: string): number {
  let score = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isAsciiLetter(c)) {
      let j = i + 1;
      while (j < n && isAsciiLetter(text.charCodeAt(j))) j++;
      const length = j - i;
      score += PER_WORD + (length > 6 ? (length - 6) * PER_LONG_WORD_LETTER : 0);
      i = j;
    } else if (c >= 48 && c <= 57) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d < 48 || d > 57) break;
        j++;
      }
      score += Math.ceil((j - i) / 3) * PER_DIGIT_GROUP;
      i = j;
    } else if (c === 32) {
      let j = i + 1;
      while (j < n && text.charCodeAt(j) === 32) j++;
      if (j - i > 1) score += PER_WHITESPACE_RUN;
      i = j;
    } else if (c === 10 || c === 13 || c === 9) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d !== 10 && d !== 13 && d !== 9 && d !== 32) break;
        j++;
      }
      score += PER_WHITESPACE_RUN;
      i = j;
    } else if (c < 128) {
      score += PER_PUNCTUATION;
      i++;
    } else {
      score += isCjk(c) ? PER_CJK_CHAR : PER_OTHER_NON_ASCII;
      i++;
    }
  }
  return Math.ceil(score);
}

/** Tokens `text` costs in `modelId`'s context: exact for OpenAI models, estimated otherwise. */
export function estimateTokens(text: string, modelId: string): number {
  if (text.length === 0) return 0;
  if (usesOpenAiTokenizer(modelId)) return countO200k(text, PLAIN_TEXT);
  const estimate = estimateTokensHeuristic(text);
  return providerOf(modelId) === "anthropic" ? Math.ceil(estimate * ANTHROPIC_FACTOR) : estimate;
}

type ContentPart = Exclude<LanguageModelV3Message["content"], string>[number];
type FilePart = Extract<ContentPart, { type: "file" }>;

function estimateFileTokens(part: FilePart, modelId: string): number {
  if (part.mediaType.startsWith("image/")) return IMAGE_PART_TOKENS;
  const data = part.data;
  // Inline text files are counted as text; base64 and binary by size (~4 bytes per token).
  if (typeof data === "string") {
    return part.mediaType.startsWith("text/")
      ? estimateTokens(decodeBase64Text(data), modelId)
      : Math.ceil((data.length * 3) / 4 / 4);
  }
  if (data instanceof Uint8Array) return Math.ceil(data.byteLength / 4);
  return IMAGE_PART_TOKENS; // a URL: the provider fetches it and we cannot see its size
}

// atob + TextDecoder rather than Buffer so this module also runs in the browser.
function decodeBase64Text(data: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
  } catch {
    return data;
  }
}

function estimateJsonTokens(value: unknown, modelId: string): number {
  return estimateTokens(JSON.stringify(value) ?? "", modelId);
}

function estimatePartTokens(part: ContentPart, modelId: string): number {
  switch (part.type) {
    case "text":
    case "reasoning":
      return estimateTokens(part.text, modelId);
    case "file":
      return estimateFileTokens(part, modelId);
    case "tool-call":
      return estimateTokens(part.toolName, modelId) + estimateJsonTokens(part.input, modelId);
    case "tool-result": {
      const output = part.output;
      const name = estimateTokens(part.toolName, modelId);
      switch (output.type) {
        case "text":
        case "error-text":
          return name + estimateTokens(output.value, modelId);
        case "json":
        case "error-json":
          return name + estimateJsonTokens(output.value, modelId);
        case "execution-denied":
          return name + estimateTokens(output.reason ?? "", modelId);
        case "content":
          return output.value.reduce(
            (sum, item) =>
              sum +
              (item.type === "text"
                ? estimateTokens(item.text, modelId)
                : item.type === "file-data" && item.mediaType.startsWith("text/")
                  ? estimateTokens(decodeBase64Text(item.data), modelId)
                  : IMAGE_PART_TOKENS),
            name,
          );
      }
      return name;
    }
    case "tool-approval-response":
      return estimateTokens(part.reason ?? "", modelId) + 2;
  }
}

/** One message's cost including its framing; callers cache this per stored message. */
export function estimateMessageTokens(message: LanguageModelV3Message, modelId: string): number {
  if (typeof message.content === "string") {
    return MESSAGE_OVERHEAD_TOKENS + estimateTokens(message.content, modelId);
  }
  let total = MESSAGE_OVERHEAD_TOKENS;
  for (const part of message.content) total += estimatePartTokens(part, modelId);
  return total;
}

/** A whole prompt as the provider would receive it. */
export function estimatePromptTokens(prompt: LanguageModelV3Prompt, modelId: string): number {
  let total = PROMPT_OVERHEAD_TOKENS;
  for (const message of prompt) total += estimateMessageTokens(message, modelId);
  return total;
}

/** A tool definition as a model call receives it (LanguageModelV3CallOptions.tools). */
export type ToolDefinition = LanguageModelV3FunctionTool | LanguageModelV3ProviderTool;

/**
 * What the tool definitions of a call cost in `modelId`'s context: providers send them with every
 * step and count them as input. Per tool: its name, description and JSON input schema (a
 * provider tool: its id and arguments) plus TOOL_OVERHEAD_TOKENS. Add it to
 * estimatePromptTokens for the whole input of a call with tools.
 */
export function toolDefinitionTokens(
  tools: readonly ToolDefinition[] | undefined,
  modelId: string,
): number {
  let total = 0;
  for (const tool of tools ?? []) {
    total += TOOL_OVERHEAD_TOKENS + estimateTokens(tool.name, modelId);
    if (tool.type === "function") {
      total += estimateTokens(tool.description ?? "", modelId);
      total += estimateJsonTokens(tool.inputSchema, modelId);
    } else {
      total += estimateTokens(tool.id, modelId) + estimateJsonTokens(tool.args, modelId);
    }
  }
  return total;
}
