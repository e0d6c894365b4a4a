// Which models this server can call, read from the environment (the provider variables in the
// README), and the AI SDK LanguageModelV3 for a model id. With no provider configured only the
// offline model exists. Every function takes the parsed environment, so tests pass their own.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { type ServerEnv, serverEnv } from "@/core/env";
import { BatonError } from "@/core/errors";
import { createOfflineModel } from "@/lib/demo-model/model";
import { OFFLINE_MODEL_ID, providerOf } from "./registry";

/** The variables this module reads (already parsed: trimmed, "" as unset). */
export type ProviderEnv = Pick<
  ServerEnv,
  | "OPENAI_API_KEY"
  | "OPENAI_BASE_URL"
  | "OPENAI_API_MODE"
  | "OPENAI_MODELS"
  | "ANTHROPIC_API_KEY"
  | "ANTHROPIC_BASE_URL"
  | "ANTHROPIC_MODELS"
  | "OPENAI_COMPATIBLE_BASE_URL"
  | "OPENAI_COMPATIBLE_MODELS"
  | "OPENAI_COMPATIBLE_API_KEY"
  | "BATON_MODEL"
>;

type ProviderName = "openai" | "anthropic" | "compatible" | "baton";

export interface ConfiguredModel {
  id: string;
  label: string;
  provider: ProviderName;
  offline: boolean;
}

const DEFAULT_OPENAI_MODELS = ["gpt-4.1", "gpt-5", "gpt-4.1-mini"];
const DEFAULT_ANTHROPIC_MODELS = ["claude-sonnet-4-5", "claude-opus-4-6", "claude-haiku-4-5"];

const LABELS: Readonly<Record<string, string>> = {
  "openai:gpt-4.1": "GPT-4.1",
  "openai:gpt-4.1-mini": "GPT-4.1 mini",
  "openai:gpt-5": "GPT-5",
  "anthropic:claude-sonnet-4-5": "Claude Sonnet 4.5",
  "anthropic:claude-opus-4-6": "Claude Opus 4.6",
  "anthropic:claude-haiku-4-5": "Claude Haiku 4.5",
  [OFFLINE_MODEL_ID]: "Offline demo model",
};

export type ModelUnavailableReason = "invalid_id" | "unknown_provider" | "not_configured";

/** A model id this server cannot call; a BatonError so routes answer it without a mapper. */
export class ModelUnavailableError extends BatonError {
  constructor(
    readonly modelId: string,
    readonly reason: ModelUnavailableReason,
  ) {
    super("unavailable:model", unavailableMessage(modelId, reason));
    this.name = "ModelUnavailableError";
  }
}

function unavailableMessage(modelId: string, reason: ModelUnavailableReason): string {
  switch (reason) {
    case "invalid_id":
      return `"${modelId}" is not a model id; expected provider:model (or ${OFFLINE_MODEL_ID}).`;
    case "unknown_provider":
      return `No provider is known for "${modelId}".`;
    case "not_configured":
      return `The provider for "${modelId}" is not configured on this server.`;
  }
}

/** A comma list of model names, each with or without its `provider:` prefix, deduplicated. */
function modelList(raw: string | undefined, provider: string): string[] {
  if (raw === undefined) return [];
  const names = raw
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => (name.startsWith(`${provider}:`) ? name.slice(provider.length + 1) : name))
    .filter(Boolean);
  return [...new Set(names)];
}

function entry(provider: Exclude<ProviderName, "baton">, model: string): ConfiguredModel {
  const id = `${provider}:${model}`;
  return { id, label: LABELS[id] ?? model, provider, offline: false };
}

const OFFLINE_ENTRY: ConfiguredModel = {
  id: OFFLINE_MODEL_ID,
  label: LABELS[OFFLINE_MODEL_ID] ?? OFFLINE_MODEL_ID,
  provider: "baton",
  offline: true,
};

function compatibleModels(env: ProviderEnv): string[] {
  if (!env.OPENAI_COMPATIBLE_BASE_URL) return [];
  return modelList(env.OPENAI_COMPATIBLE_MODELS, "compatible");
}

/**
 * Every callable model, real providers in a fixed order (OpenAI, Anthropic, compatible), the
 * offline model last: it is always callable, so a configured server can still run the demo.
 * OPENAI_COMPATIBLE_BASE_URL without OPENAI_COMPATIBLE_MODELS lists nothing: model names
 * cannot be known without asking the server.
 */
export function listConfiguredModels(env: ProviderEnv = serverEnv()): ConfiguredModel[] {
  const models: ConfiguredModel[] = [];
  if (env.OPENAI_API_KEY) {
    const names = modelList(env.OPENAI_MODELS, "openai");
    for (const name of names.length ? names : DEFAULT_OPENAI_MODELS) {
      models.push(entry("openai", name));
    }
  }
  if (env.ANTHROPIC_API_KEY) {
    const names = modelList(env.ANTHROPIC_MODELS, "anthropic");
    for (const name of names.length ? names : DEFAULT_ANTHROPIC_MODELS) {
      models.push(entry("anthropic", name));
    }
  }
  for (const name of compatibleModels(env)) models.push(entry("compatible", name));
  models.push(OFFLINE_ENTRY);
  return models;
}

/**
 * BATON_MODEL when it names a configured model (full id, or a bare name matching one), else
 * the first configured provider's first model, else the offline model.
 */
export function defaultModelId(env: ProviderEnv = serverEnv()): string {
  const models = listConfiguredModels(env);
  const wanted = env.BATON_MODEL;
  if (wanted) {
    const exact = models.find((m) => m.id === wanted);
    if (exact) return exact.id;
    const bare = models.filter((m) => m.id.slice(m.id.indexOf(":") + 1) === wanted);
    if (bare.length === 1 && bare[0]) return bare[0].id;
  }
  return models[0]?.id ?? OFFLINE_MODEL_ID;
}

export function isOfflineModel(modelId: string): boolean {
  return modelId === OFFLINE_MODEL_ID;
}

/**
 * The model for an id. Any model name under a configured provider is accepted (profiles may
 * name models outside the offered list); the provider decides whether the name exists.
 */
export function getLanguageModel(modelId: string, env: ProviderEnv = serverEnv()): LanguageModelV3 {
  if (isOfflineModel(modelId)) return createOfflineModel();
  const provider = providerOf(modelId);
  const model = modelId.slice(modelId.indexOf(":") + 1);
  if (provider === undefined || model === "") {
    throw new ModelUnavailableError(modelId, "invalid_id");
  }
  switch (provider) {
    case "openai": {
      const apiKey = env.OPENAI_API_KEY;
      if (!apiKey) throw new ModelUnavailableError(modelId, "not_configured");
      const openai = createOpenAI({ apiKey, baseURL: env.OPENAI_BASE_URL });
      // The Responses API by default; Chat Completions for proxies that speak only that.
      return env.OPENAI_API_MODE === "chat" ? openai.chat(model) : openai.responses(model);
    }
    case "anthropic": {
      const apiKey = env.ANTHROPIC_API_KEY;
      if (!apiKey) throw new ModelUnavailableError(modelId, "not_configured");
      return createAnthropic({ apiKey, baseURL: env.ANTHROPIC_BASE_URL })(model);
    }
    case "compatible": {
      const baseURL = env.OPENAI_COMPATIBLE_BASE_URL;
      if (!baseURL) throw new ModelUnavailableError(modelId, "not_configured");
      return createOpenAICompatible({
        name: "compatible",
        baseURL,
        apiKey: env.OPENAI_COMPATIBLE_API_KEY,
        // Streamed usage is what the context meter measures from (docs/context-engine.md).
        includeUsage: true,
        // Ollama, vLLM, LM Studio and llama.cpp accept json_schema; without it the handoff
        // would be requested as free-form JSON and often fail validation.
        supportsStructuredOutputs: true,
      }).chatModel(model);
    }
    default:
      throw new ModelUnavailableError(modelId, "unknown_provider");
  }
}
