import { afterEach, describe, expect, it, vi } from "vitest";
import { parseEnv } from "@/core/env";
import { resolveModelInfo, resolveStrategy } from "./registry";

const NO_ENV = {};

describe("resolveModelInfo", () => {
  it.each([
    ["anthropic:claude-sonnet-4-5-20250929", 200_000, "reset"],
    ["anthropic:claude-sonnet-4-5", 200_000, "reset"],
    ["anthropic:claude-opus-4-6", 1_000_000, "compact"],
    ["anthropic:claude-opus-4-1-20250805", 200_000, "reset"],
    ["anthropic:claude-haiku-4-5", 200_000, "reset"],
    ["openai:gpt-4.1", 1_047_576, "compact"],
    ["openai:gpt-4.1-mini", 1_047_576, "compact"],
    ["openai:gpt-5", 400_000, "compact"],
    ["openai:gpt-5-mini", 400_000, "compact"],
    ["openai:gpt-4o", 128_000, "compact"],
    ["openai:gpt-4o-mini", 128_000, "compact"],
    ["google:gemini-2.5-pro", 1_048_576, "compact"],
  ] as const)("%s → %i tokens, %s", (id, contextWindow, defaultStrategy) => {
    expect(resolveModelInfo(id, NO_ENV)).toEqual({ contextWindow, defaultStrategy });
  });

  it("prefers the longest matching prefix over a shorter one", () => {
    // `anthropic:claude-opus-4` also matches opus-4-6; the longer entry must win.
    expect(resolveModelInfo("anthropic:claude-opus-4-6", NO_ENV).contextWindow).toBe(1_000_000);
    expect(resolveModelInfo("anthropic:claude-opus-4-5", NO_ENV).contextWindow).toBe(200_000);
    // `openai:gpt-4` is 8k; gpt-4o and gpt-4.1 must not fall into it.
    expect(resolveModelInfo("openai:gpt-4", NO_ENV)).toEqual({
      contextWindow: 8_192,
      defaultStrategy: "reset",
    });
  });

  it("resolves bare model ids under the provider that knows them", () => {
    expect(resolveModelInfo("claude-sonnet-4-5", NO_ENV)).toEqual({
      contextWindow: 200_000,
      defaultStrategy: "reset",
    });
    expect(resolveModelInfo("gpt-4.1-2025-04-14", NO_ENV).contextWindow).toBe(1_047_576);
    expect(resolveModelInfo("claude-opus-4-6", NO_ENV).contextWindow).toBe(1_000_000);
  });

  it("treats unknown models as 128k compact", () => {
    expect(resolveModelInfo("mistral:large-2", NO_ENV)).toEqual({
      contextWindow: 128_000,
      defaultStrategy: "compact",
    });
    expect(resolveModelInfo("llama3.1", NO_ENV)).toEqual({
      contextWindow: 128_000,
      defaultStrategy: "compact",
    });
  });

  it("gives the offline model BATON_LOCAL_CONTEXT_WINDOW, 4096 by default, and reset", () => {
    expect(resolveModelInfo("baton/local", NO_ENV)).toEqual({
      contextWindow: 4096,
      defaultStrategy: "reset",
    });
    expect(
      resolveModelInfo("baton/local", parseEnv({ BATON_LOCAL_CONTEXT_WINDOW: "2000" })),
    ).toEqual({
      contextWindow: 2000,
      defaultStrategy: "reset",
    });
  });

  it("applies BATON_CONTEXT_WINDOW to every model but the offline one", () => {
    const env = parseEnv({ BATON_CONTEXT_WINDOW: "64000" });
    expect(resolveModelInfo("openai:gpt-4.1", env).contextWindow).toBe(64_000);
    expect(resolveModelInfo("unknown:thing", env).contextWindow).toBe(64_000);
    expect(resolveModelInfo("baton/local", env).contextWindow).toBe(4096);
  });

  it("a small override window turns the default strategy into reset", () => {
    expect(resolveModelInfo("openai:gpt-4.1", parseEnv({ BATON_CONTEXT_WINDOW: "16000" }))).toEqual(
      {
        contextWindow: 16_000,
        defaultStrategy: "reset",
      },
    );
  });

  it("sizes compatible models by OPENAI_COMPATIBLE_CONTEXT_WINDOW (the server's num_ctx)", () => {
    // Without it the server's window is unknown to us: the unknown-model default.
    expect(resolveModelInfo("compatible:llama3.1", NO_ENV)).toEqual({
      contextWindow: 128_000,
      defaultStrategy: "compact",
    });
    expect(
      resolveModelInfo(
        "compatible:llama3.1",
        parseEnv({ OPENAI_COMPATIBLE_CONTEXT_WINDOW: "4096" }),
      ),
    ).toEqual({
      contextWindow: 4096,
      defaultStrategy: "reset",
    });
    const env = parseEnv({
      OPENAI_COMPATIBLE_CONTEXT_WINDOW: "65536",
      BATON_CONTEXT_WINDOW: "8000",
    });
    expect(resolveModelInfo("compatible:llama3.1:8b", env)).toEqual({
      contextWindow: 65_536,
      defaultStrategy: "compact",
    });
    expect(
      resolveModelInfo("compatible:qwen3", parseEnv({ BATON_CONTEXT_WINDOW: "8000" }))
        .contextWindow,
    ).toBe(8000);
    // The compatible override never leaks into other providers.
    expect(resolveModelInfo("openai:gpt-5", env).contextWindow).toBe(8000);
  });

  it("treats an empty override as unset; the environment parser refuses malformed ones", () => {
    const empty = parseEnv({ BATON_CONTEXT_WINDOW: "" });
    expect(resolveModelInfo("openai:gpt-5", empty).contextWindow).toBe(400_000);
    for (const value of ["abc", "-5", "0", "12.5", "1e6"]) {
      expect(() => parseEnv({ BATON_CONTEXT_WINDOW: value }), value).toThrow(
        /BATON_CONTEXT_WINDOW/,
      );
    }
  });

  describe("without an env argument", () => {
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it("reads the process environment through the environment module", () => {
      vi.stubEnv("BATON_CONTEXT_WINDOW", "64000");
      expect(resolveModelInfo("openai:gpt-4.1").contextWindow).toBe(64_000);
      vi.stubEnv("BATON_CONTEXT_WINDOW", "");
      expect(resolveModelInfo("openai:gpt-4.1").contextWindow).toBe(1_047_576);
    });
  });
});

describe("resolveStrategy", () => {
  it("passes explicit settings through", () => {
    expect(resolveStrategy("reset", "anthropic:claude-opus-4-6", NO_ENV)).toBe("reset");
    expect(resolveStrategy("compact", "baton/local", NO_ENV)).toBe("compact");
    expect(resolveStrategy("off", "openai:gpt-4.1", NO_ENV)).toBe("off");
  });

  it("auto: compact for large-window Opus, reset for Sonnet and small windows, compact for unknown", () => {
    expect(resolveStrategy("auto", "anthropic:claude-opus-4-6", NO_ENV)).toBe("compact");
    expect(resolveStrategy("auto", "anthropic:claude-sonnet-4-5", NO_ENV)).toBe("reset");
    expect(resolveStrategy("auto", "baton/local", NO_ENV)).toBe("reset");
    expect(resolveStrategy("auto", "someone:new-model", NO_ENV)).toBe("compact");
    expect(
      resolveStrategy("auto", "openai:gpt-4.1", parseEnv({ BATON_CONTEXT_WINDOW: "20000" })),
    ).toBe("reset");
  });
});
