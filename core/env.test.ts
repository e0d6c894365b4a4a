import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EnvError, envProblem, parseEnv, type RawEnv, serverEnv } from "./env";

const ROOT = path.resolve(import.meta.dirname, "..");

function problemsOf(source: RawEnv): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  return [];
}

describe("parseEnv", () => {
  it("accepts an empty environment: every variable is optional", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.BATON_RESET_THRESHOLD).toBeUndefined();
  });

  it("treats empty and blank values as unset and trims the rest", () => {
    const env = parseEnv({ OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "  ", BATON_MODEL: " gpt-5 " });
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(env.BATON_MODEL).toBe("gpt-5");
  });

  it("ignores variables it does not know", () => {
    expect(() => parseEnv({ HOME: "/root", SOMETHING_ELSE: "abc" })).not.toThrow();
  });

  it("names every malformed variable in one error", () => {
    const problems = problemsOf({
      BATON_RESET_THRESHOLD: "abc",
      BATON_LOCAL_DELAY_MS: "-1",
      DATABASE_URL: "mysql://db",
      OPENAI_BASE_URL: "not a url",
    });
    expect(problems.map((p) => p.split(":")[0]).sort()).toEqual([
      "BATON_LOCAL_DELAY_MS",
      "BATON_RESET_THRESHOLD",
      "DATABASE_URL",
      "OPENAI_BASE_URL",
    ]);
  });

  it("reads thresholds as fractions in (0, 1]", () => {
    expect(parseEnv({ BATON_RESET_THRESHOLD: "1", BATON_COMPACT_THRESHOLD: ".25" })).toMatchObject({
      BATON_RESET_THRESHOLD: 1,
      BATON_COMPACT_THRESHOLD: 0.25,
    });
    for (const bad of ["0", "1.5", "-0.2", "80%", "abc", "0x1"]) {
      expect(problemsOf({ BATON_RESET_THRESHOLD: bad }), bad).toEqual([
        expect.stringMatching(/^BATON_RESET_THRESHOLD: /),
      ]);
    }
  });

  it("refuses a compact threshold above the reset threshold, defaults included", () => {
    // Reset at 0.4 alone leaves compaction at its default 0.5: after the reset, so never.
    expect(problemsOf({ BATON_RESET_THRESHOLD: "0.4" })).toEqual([
      expect.stringMatching(/^BATON_COMPACT_THRESHOLD: must not exceed BATON_RESET_THRESHOLD/),
    ]);
    expect(problemsOf({ BATON_COMPACT_THRESHOLD: "0.9" })).toHaveLength(1);
    expect(problemsOf({ BATON_RESET_THRESHOLD: "0.4", BATON_COMPACT_THRESHOLD: "0.3" })).toEqual(
      [],
    );
  });

  it("reads whole numbers strictly", () => {
    expect(parseEnv({ BATON_CONTEXT_WINDOW: "64000", BATON_TRUST_PROXY: "0" })).toMatchObject({
      BATON_CONTEXT_WINDOW: 64_000,
      BATON_TRUST_PROXY: 0,
    });
    for (const bad of ["0", "12.5", "1e6", "0x10", "64k"]) {
      expect(problemsOf({ BATON_CONTEXT_WINDOW: bad }), bad).toHaveLength(1);
    }
    expect(problemsOf({ BATON_TRUST_PROXY: "-1" })).toHaveLength(1);
    expect(parseEnv({ BATON_HANDOFF_TTL_DAYS: "0.5" }).BATON_HANDOFF_TTL_DAYS).toBe(0.5);
    expect(problemsOf({ BATON_HANDOFF_TTL_DAYS: "0" })).toHaveLength(1);
  });

  it("reads a log level from a closed list", () => {
    expect(parseEnv({ BATON_LOG_LEVEL: " debug " }).BATON_LOG_LEVEL).toBe("debug");
    expect(parseEnv({ BATON_LOG_LEVEL: "" }).BATON_LOG_LEVEL).toBeUndefined();
    for (const bad of ["verbose", "INFO", "2"]) {
      expect(problemsOf({ BATON_LOG_LEVEL: bad }), bad).toEqual([
        "BATON_LOG_LEVEL: must be debug, info, warn or error",
      ]);
    }
  });

  it("reads rate limits as requests per window", () => {
    expect(
      parseEnv({
        BATON_RATE_LIMIT_SIGN_IN: "10/60s",
        BATON_RATE_LIMIT_CHAT: "30/1m",
        BATON_RATE_LIMIT_API: "1000/1h",
      }),
    ).toMatchObject({
      BATON_RATE_LIMIT_SIGN_IN: { points: 10, durationSeconds: 60 },
      BATON_RATE_LIMIT_CHAT: { points: 30, durationSeconds: 60 },
      BATON_RATE_LIMIT_API: { points: 1000, durationSeconds: 3600 },
    });
    for (const bad of ["10", "10/60", "ten/60s", "0/60s", "10/0s", "10 per minute"]) {
      expect(problemsOf({ BATON_RATE_LIMIT_GUEST: bad }), bad).toHaveLength(1);
    }
  });

  it("reads public origins as a list of http(s) origins", () => {
    expect(
      parseEnv({ BATON_PUBLIC_ORIGINS: "https://baton.example.com/, http://10.0.0.2:8080" })
        .BATON_PUBLIC_ORIGINS,
    ).toEqual(["https://baton.example.com", "http://10.0.0.2:8080"]);
    expect(problemsOf({ BATON_PUBLIC_ORIGINS: "https://ok.example, ftp://files" })).toEqual([
      expect.stringMatching(/^BATON_PUBLIC_ORIGINS: "ftp:\/\/files" is not an http\(s\) origin/),
    ]);
  });

  it("strips a trailing slash from base URLs", () => {
    expect(parseEnv({ OPENAI_BASE_URL: "https://gateway.example/v1/" }).OPENAI_BASE_URL).toBe(
      "https://gateway.example/v1",
    );
  });

  it("never repeats a value in its message (it may be a secret)", () => {
    const problem = envProblem({ BETTER_AUTH_SECRET: "short-secret-value" });
    expect(problem).toMatch(/BETTER_AUTH_SECRET: must be at least 32 characters/);
    expect(problem).not.toContain("short-secret-value");
  });
});

describe("envProblem", () => {
  it("is null for a valid environment and names the variable otherwise", () => {
    expect(envProblem({ BATON_RESET_THRESHOLD: "0.7" })).toBeNull();
    expect(envProblem({ BATON_RESET_THRESHOLD: "abc" })).toMatch(/BATON_RESET_THRESHOLD/);
  });
});

describe("multi-server mode (REDIS_URL set)", () => {
  const SECRET = "a-shared-secret-of-at-least-32-characters";

  it("refuses to start without BETTER_AUTH_SECRET, naming it", () => {
    const problem = envProblem({ REDIS_URL: "redis://127.0.0.1:6379" });
    expect(problem).toMatch(/BETTER_AUTH_SECRET: required when REDIS_URL is set/);
    // An empty value counts as unset (an `.env` line `BETTER_AUTH_SECRET=`).
    expect(envProblem({ REDIS_URL: "redis://redis:6379", BETTER_AUTH_SECRET: " " })).toMatch(
      /BETTER_AUTH_SECRET: required/,
    );
  });

  it("starts with a shared secret, and without Redis needs none", () => {
    expect(envProblem({ REDIS_URL: "redis://127.0.0.1:6379", BETTER_AUTH_SECRET: SECRET })).toBe(
      null,
    );
    expect(envProblem({})).toBeNull();
    expect(envProblem({ REDIS_URL: "" })).toBeNull();
  });

  it("reports a malformed variable before the missing secret", () => {
    expect(envProblem({ REDIS_URL: "redis://127.0.0.1:6379", BATON_LOG_LEVEL: "loud" })).toMatch(
      /BATON_LOG_LEVEL/,
    );
  });

  it("still parses for code that only reads the variables", () => {
    expect(parseEnv({ REDIS_URL: "redis://127.0.0.1:6379" }).REDIS_URL).toBe(
      "redis://127.0.0.1:6379",
    );
  });
});

describe("serverEnv", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("follows changes to the process environment and throws on a malformed value", () => {
    vi.stubEnv("BATON_HANDOFF_TTL_DAYS", "7");
    expect(serverEnv().BATON_HANDOFF_TTL_DAYS).toBe(7);
    vi.stubEnv("BATON_HANDOFF_TTL_DAYS", "");
    expect(serverEnv().BATON_HANDOFF_TTL_DAYS).toBeUndefined();
    vi.stubEnv("BATON_HANDOFF_TTL_DAYS", "soon");
    expect(() => serverEnv()).toThrow(EnvError);
  });
});

// next.config.ts is what `next dev`, `next build` and `next start` load first: loading it with a
// malformed variable must end the process, naming the variable.
describe("loading next.config.ts", () => {
  const run = promisify(execFile);
  const load = (extra: RawEnv) =>
    run(process.execPath, ["--import", "tsx", "next.config.ts"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", ...extra },
      encoding: "utf8",
      timeout: 30_000,
    });

  it("exits 1 naming a malformed variable", async () => {
    const failure = await load({ BATON_RESET_THRESHOLD: "abc" }).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/BATON_RESET_THRESHOLD: must be a number/);
  }, 40_000);

  it("exits 1 naming BETTER_AUTH_SECRET when REDIS_URL is set without it", async () => {
    const failure = await load({ REDIS_URL: "redis://127.0.0.1:6379" }).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/BETTER_AUTH_SECRET: required when REDIS_URL is set/);
  }, 40_000);

  it("loads with a valid environment", async () => {
    const { stderr } = await load({ BATON_RESET_THRESHOLD: "0.7", BATON_TRUST_PROXY: "1" });
    expect(stderr).toBe("");
  }, 40_000);
});
