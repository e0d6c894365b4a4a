import { afterEach, describe, expect, it, vi } from "vitest";
import { parseEnv, type RawEnv } from "@/core/env";
import {
  defaultModelId,
  getLanguageModel,
  isOfflineModel,
  listConfiguredModels,
  ModelUnavailableError,
} from "./providers";

/** The ids offered for a raw environment, parsed as the server parses its own. */
const ids = (env: RawEnv) => listConfiguredModels(parseEnv(env)).map((m) => m.id);

describe("listConfiguredModels", () => {
  it("offers only the offline model when no provider is configured", () => {
    expect(listConfiguredModels({})).toEqual([
      { id: "baton/local", label: "Offline demo model", provider: "baton", offline: true },
    ]);
  });

  it("treats empty keys as unset", () => {
    expect(ids({ OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "  " })).toEqual(["baton/local"]);
  });

  it("lists every configured provider, OpenAI, Anthropic, compatible, with the offline model last", () => {
    const env = {
      ANTHROPIC_API_KEY: "sk-ant",
      OPENAI_API_KEY: "sk-oai",
      OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1",
      OPENAI_COMPATIBLE_MODELS: "llama3.1, qwen3:8b",
    };
    expect(ids(env)).toEqual([
      "openai:gpt-4.1",
      "openai:gpt-5",
      "openai:gpt-4.1-mini",
      "anthropic:claude-sonnet-4-5",
      "anthropic:claude-opus-4-6",
      "anthropic:claude-haiku-4-5",
      "compatible:llama3.1",
      "compatible:qwen3:8b",
      "baton/local",
    ]);
    const models = listConfiguredModels(env);
    expect(models.find((m) => m.id === "openai:gpt-4.1")).toEqual({
      id: "openai:gpt-4.1",
      label: "GPT-4.1",
      provider: "openai",
      offline: false,
    });
    expect(models.find((m) => m.id === "compatible:qwen3:8b")?.label).toBe("qwen3:8b");
  });

  it("lets OPENAI_MODELS and ANTHROPIC_MODELS replace the default lists", () => {
    expect(
      ids({
        OPENAI_API_KEY: "k",
        OPENAI_MODELS: "gpt-4o, openai:o3,,gpt-4o",
        ANTHROPIC_API_KEY: "k",
        ANTHROPIC_MODELS: "claude-opus-4-1",
      }),
    ).toEqual(["openai:gpt-4o", "openai:o3", "anthropic:claude-opus-4-1", "baton/local"]);
  });

  it("needs both the base URL and the model list for a compatible server", () => {
    expect(ids({ OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1" })).toEqual([
      "baton/local",
    ]);
    expect(ids({ OPENAI_COMPATIBLE_MODELS: "llama3.1" })).toEqual(["baton/local"]);
  });
});

describe("defaultModelId", () => {
  it("is the offline model with nothing configured", () => {
    expect(defaultModelId({})).toBe("baton/local");
  });

  it("is the first configured provider's first model (first match wins)", () => {
    expect(defaultModelId({ ANTHROPIC_API_KEY: "k", OPENAI_API_KEY: "k" })).toBe("openai:gpt-4.1");
    expect(
      defaultModelId({
        ANTHROPIC_API_KEY: "k",
        OPENAI_COMPATIBLE_BASE_URL: "http://x/v1",
        OPENAI_COMPATIBLE_MODELS: "llama3.1",
      }),
    ).toBe("anthropic:claude-sonnet-4-5");
  });

  it("honours BATON_MODEL among configured models only", () => {
    const env = { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" };
    expect(defaultModelId({ ...env, BATON_MODEL: "anthropic:claude-opus-4-6" })).toBe(
      "anthropic:claude-opus-4-6",
    );
    expect(defaultModelId({ ...env, BATON_MODEL: "gpt-5" })).toBe("openai:gpt-5");
    expect(defaultModelId({ ...env, BATON_MODEL: "baton/local" })).toBe("baton/local");
    expect(defaultModelId({ ...env, BATON_MODEL: "google:gemini-2.5-pro" })).toBe("openai:gpt-4.1");
  });
});

describe("getLanguageModel", () => {
  it("returns the offline model for baton/local without any configuration", () => {
    const model = getLanguageModel("baton/local", {});
    expect(model.specificationVersion).toBe("v3");
    expect(model.provider).toBe("baton");
    expect(model.modelId).toBe("local");
    expect(isOfflineModel("baton/local")).toBe(true);
    expect(isOfflineModel("openai:gpt-4.1")).toBe(false);
  });

  it("builds V3 models for configured providers without calling them", () => {
    const env = {
      OPENAI_API_KEY: "k",
      ANTHROPIC_API_KEY: "k",
      OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1",
      OPENAI_COMPATIBLE_MODELS: "llama3.1",
    };
    const openai = getLanguageModel("openai:gpt-4.1", env);
    expect(openai.specificationVersion).toBe("v3");
    expect(openai.modelId).toBe("gpt-4.1");
    expect(openai.provider).toMatch(/^openai/);
    const anthropic = getLanguageModel("anthropic:claude-sonnet-4-5", env);
    expect(anthropic.modelId).toBe("claude-sonnet-4-5");
    expect(anthropic.provider).toMatch(/^anthropic/);
    const compatible = getLanguageModel("compatible:llama3.1", env);
    expect(compatible.modelId).toBe("llama3.1");
    expect(compatible.provider).toMatch(/^compatible/);
  });

  it("speaks the Responses API to OpenAI unless OPENAI_API_MODE is chat", () => {
    const mode = (raw: RawEnv) =>
      getLanguageModel("openai:gpt-4.1", parseEnv({ OPENAI_API_KEY: "k", ...raw })).provider;
    expect(mode({})).toBe("openai.responses");
    expect(mode({ OPENAI_API_MODE: "responses" })).toBe("openai.responses");
    expect(mode({ OPENAI_API_MODE: "chat" })).toBe("openai.chat");
  });

  it("throws a typed error for unknown or unconfigured ids", () => {
    const cases = [
      ["openai:gpt-4.1", {}, "not_configured"],
      ["anthropic:claude-sonnet-4-5", { OPENAI_API_KEY: "k" }, "not_configured"],
      ["compatible:llama3.1", {}, "not_configured"],
      ["mistral:large", { OPENAI_API_KEY: "k" }, "unknown_provider"],
      ["gpt-4.1", { OPENAI_API_KEY: "k" }, "invalid_id"],
      ["openai:", { OPENAI_API_KEY: "k" }, "invalid_id"],
    ] as const;
    for (const [id, env, reason] of cases) {
      let caught: unknown;
      try {
        getLanguageModel(id, env);
      } catch (error) {
        caught = error;
      }
      expect(caught, id).toBeInstanceOf(ModelUnavailableError);
      expect((caught as ModelUnavailableError).reason).toBe(reason);
      expect((caught as ModelUnavailableError).modelId).toBe(id);
      expect((caught as ModelUnavailableError).status).toBe(503);
    }
  });
});

describe("without an env argument", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("reads the process environment through the environment module", () => {
    for (const name of ["OPENAI_API_KEY", "OPENAI_COMPATIBLE_BASE_URL", "BATON_MODEL"]) {
      vi.stubEnv(name, "");
    }
    vi.stubEnv("ANTHROPIC_API_KEY", " sk-ant ");
    vi.stubEnv("ANTHROPIC_MODELS", "claude-haiku-4-5");
    expect(defaultModelId()).toBe("anthropic:claude-haiku-4-5");
    expect(getLanguageModel("anthropic:claude-haiku-4-5").modelId).toBe("claude-haiku-4-5");
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    expect(defaultModelId()).toBe("baton/local");
  });
});
