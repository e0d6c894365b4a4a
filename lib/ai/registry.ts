// Model registry: context window and default context strategy per model id (`provider:model`),
// matched by longest prefix, with env overrides, and for a compatible server the window it said
// it runs (lib/ai/server-windows.ts, asked in the background). Otherwise pure: it reads only the
// parsed environment it is given (the process's by default).
import { type ServerEnv, serverEnv } from "@/core/env";
import { knownServerWindow, type ServerWindowSource } from "./server-windows";

type ResetOrCompact = "reset" | "compact";
export type StrategySetting = "reset" | "compact" | "auto" | "off";
export type ResolvedStrategy = "reset" | "compact" | "off";

export interface ModelInfo {
  contextWindow: number;
  defaultStrategy: ResetOrCompact;
}

/** The overrides this module reads. */
export type RegistryEnv = Pick<
  ServerEnv,
  | "BATON_LOCAL_CONTEXT_WINDOW"
  | "OPENAI_COMPATIBLE_CONTEXT_WINDOW"
  | "OPENAI_COMPATIBLE_BASE_URL"
  | "OLLAMA_CONTEXT_LENGTH"
  | "BATON_CONTEXT_WINDOW"
  | "BATON_MODELS_WITHOUT_TOOLS"
>;

/** Where a model's context window came from. */
export type WindowSource =
  | "table"
  | "unknown_model"
  | "env:BATON_LOCAL_CONTEXT_WINDOW"
  | "default:offline"
  | "env:OPENAI_COMPATIBLE_CONTEXT_WINDOW"
  | "env:BATON_CONTEXT_WINDOW"
  | ServerWindowSource;

/**
 * Whether a model can call tools. Every provider Baton speaks to can; a model behind one that
 * cannot (some local models on an OpenAI-compatible server) is named in
 * BATON_MODELS_WITHOUT_TOOLS by the operator.
 */
export function modelCallsTools(modelId: string, env: RegistryEnv = serverEnv()): boolean {
  const without = (env.BATON_MODELS_WITHOUT_TOOLS ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "");
  return !without.includes(modelId);
}

export const OFFLINE_MODEL_ID = "baton/local";
export const DEFAULT_LOCAL_CONTEXT_WINDOW = 4096;

/** Below this many tokens a summary cannot leave room to work, so `auto` always resets. */
const SMALL_WINDOW_TOKENS = 32_000;

const UNKNOWN_MODEL: ModelInfo = { contextWindow: 128_000, defaultStrategy: "compact" };

/** Providers a bare model id (`gpt-4.1`, `claude-sonnet-4-5`) is tried under. */
const KNOWN_PROVIDERS = ["openai", "anthropic", "google", "compatible"] as const;

/*
 * Strategy rule for `auto` (docs/context-engine.md): compact for large-window Opus-class models and for models we
 * have no class for (OpenAI, Gemini, compatible servers, unknown); reset for Sonnet/Haiku-class
 * and for Opus 4/4.1/4.5, whose 200k window is no larger than Sonnet's. Any window below
 * SMALL_WINDOW_TOKENS resets whatever the table says (withWindow), overrides included.
 */
const TABLE: Readonly<Record<string, ModelInfo>> = {
  "anthropic:claude-opus-4-6": { contextWindow: 1_000_000, defaultStrategy: "compact" },
  "anthropic:claude-opus-4": { contextWindow: 200_000, defaultStrategy: "reset" },
  "anthropic:claude-sonnet-4": { contextWindow: 200_000, defaultStrategy: "reset" },
  "anthropic:claude-haiku": { contextWindow: 200_000, defaultStrategy: "reset" },
  "anthropic:claude-3": { contextWindow: 200_000, defaultStrategy: "reset" },

  "openai:gpt-4.1": { contextWindow: 1_047_576, defaultStrategy: "compact" },
  "openai:gpt-5": { contextWindow: 400_000, defaultStrategy: "compact" },
  "openai:gpt-5-chat": { contextWindow: 128_000, defaultStrategy: "compact" },
  "openai:gpt-4o": { contextWindow: 128_000, defaultStrategy: "compact" },
  "openai:gpt-4.5": { contextWindow: 128_000, defaultStrategy: "compact" },
  "openai:gpt-4-turbo": { contextWindow: 128_000, defaultStrategy: "compact" },
  "openai:gpt-4-1106": { contextWindow: 128_000, defaultStrategy: "compact" },
  "openai:gpt-4-0125": { contextWindow: 128_000, defaultStrategy: "compact" },
  "openai:gpt-4-32k": { contextWindow: 32_768, defaultStrategy: "compact" },
  "openai:gpt-4": { contextWindow: 8_192, defaultStrategy: "compact" },
  "openai:gpt-3.5-turbo": { contextWindow: 16_385, defaultStrategy: "compact" },
  "openai:o1": { contextWindow: 200_000, defaultStrategy: "compact" },
  "openai:o3": { contextWindow: 200_000, defaultStrategy: "compact" },
  "openai:o4-mini": { contextWindow: 200_000, defaultStrategy: "compact" },

  "google:gemini-2.5": { contextWindow: 1_048_576, defaultStrategy: "compact" },
  "google:gemini-2.0": { contextWindow: 1_048_576, defaultStrategy: "compact" },
};

// Longest first, so the first hit is the longest prefix.
const PREFIXES = Object.keys(TABLE).sort((a, b) => b.length - a.length);

function lookupPrefix(fullId: string): { prefix: string; info: ModelInfo } | undefined {
  const lower = fullId.toLowerCase();
  for (const prefix of PREFIXES) {
    const info = TABLE[prefix];
    if (info && lower.startsWith(prefix)) return { prefix, info };
  }
  return undefined;
}

/** The provider part of `provider:model`, or undefined for a bare id. */
export function providerOf(modelId: string): string | undefined {
  const colon = modelId.indexOf(":");
  return colon > 0 ? modelId.slice(0, colon).toLowerCase() : undefined;
}

function lookupModel(modelId: string): ModelInfo | undefined {
  if (providerOf(modelId) !== undefined) return lookupPrefix(modelId)?.info;
  let best: { prefix: string; info: ModelInfo } | undefined;
  for (const provider of KNOWN_PROVIDERS) {
    const hit = lookupPrefix(`${provider}:${modelId}`);
    if (hit && (!best || hit.prefix.length > best.prefix.length)) best = hit;
  }
  return best?.info;
}

function withWindow(contextWindow: number, tableStrategy: ResetOrCompact): ModelInfo {
  return {
    contextWindow,
    defaultStrategy: contextWindow < SMALL_WINDOW_TOKENS ? "reset" : tableStrategy,
  };
}

interface ResolvedWindow {
  contextWindow: number;
  source: WindowSource;
  tableStrategy: ResetOrCompact;
}

function resolveWindow(modelId: string, env: RegistryEnv): ResolvedWindow {
  if (modelId === OFFLINE_MODEL_ID) {
    const set = env.BATON_LOCAL_CONTEXT_WINDOW;
    return {
      contextWindow: set ?? DEFAULT_LOCAL_CONTEXT_WINDOW,
      source: set ? "env:BATON_LOCAL_CONTEXT_WINDOW" : "default:offline",
      tableStrategy: "reset",
    };
  }
  const listed = lookupModel(modelId);
  const base = listed ?? UNKNOWN_MODEL;
  const tableStrategy = base.defaultStrategy;
  if (providerOf(modelId) === "compatible") {
    if (env.OPENAI_COMPATIBLE_CONTEXT_WINDOW) {
      return {
        contextWindow: env.OPENAI_COMPATIBLE_CONTEXT_WINDOW,
        source: "env:OPENAI_COMPATIBLE_CONTEXT_WINDOW",
        tableStrategy,
      };
    }
    const served = knownServerWindow(modelId.slice(modelId.indexOf(":") + 1), env);
    if (served) return { ...served, tableStrategy };
  }
  if (env.BATON_CONTEXT_WINDOW) {
    return {
      contextWindow: env.BATON_CONTEXT_WINDOW,
      source: "env:BATON_CONTEXT_WINDOW",
      tableStrategy,
    };
  }
  return {
    contextWindow: base.contextWindow,
    source: listed ? "table" : "unknown_model",
    tableStrategy,
  };
}

/**
 * Context window and default strategy for a model id. Env overrides: BATON_LOCAL_CONTEXT_WINDOW
 * for `baton/local`; BATON_CONTEXT_WINDOW for every other model. A compatible server's window is
 * its own setting (Ollama: num_ctx, not the model card): OPENAI_COMPATIBLE_CONTEXT_WINDOW when
 * set, else what the server said (server-windows.ts), else as above; a model nobody knows counts
 * as unknown (128k, compact) until the server has answered.
 */
export function resolveModelInfo(modelId: string, env: RegistryEnv = serverEnv()): ModelInfo {
  const window = resolveWindow(modelId, env);
  if (modelId === OFFLINE_MODEL_ID) {
    return { contextWindow: window.contextWindow, defaultStrategy: "reset" };
  }
  return withWindow(window.contextWindow, window.tableStrategy);
}

/** Where resolveModelInfo's window for a model comes from (for operators and the docs). */
export function modelWindowSource(modelId: string, env: RegistryEnv = serverEnv()): WindowSource {
  return resolveWindow(modelId, env).source;
}

/** A profile's strategy setting made concrete for a model; `auto` asks the registry. */
export function resolveStrategy(
  setting: StrategySetting,
  modelId: string,
  env: RegistryEnv = serverEnv(),
): ResolvedStrategy {
  if (setting !== "auto") return setting;
  return resolveModelInfo(modelId, env).defaultStrategy;
}
