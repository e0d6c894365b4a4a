// Every environment variable Baton reads, parsed in one place. A malformed value stops the server
// at start-up with a message naming the variable (next.config.ts calls `exitOnInvalidEnv`, and
// `next dev`, `next build` and `next start` all evaluate it); empty strings count as unset (`.env`
// files often carry `OPENAI_API_KEY=`). Nothing outside this module reads `process.env`, with one
// exception: `process.env.NEXT_RUNTIME`, which is not configuration but a constant Next's bundler
// writes into each build (instrumentation.ts tests it so the edge build drops Node-only code).
import { z } from "zod";
import { DEFAULT_COMPACT_THRESHOLD, DEFAULT_RESET_THRESHOLD } from "./context-defaults";

/** Values are trimmed; unset and "" both mean "use the default". */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => {
    if (typeof value !== "string") return value;
    const trimmed = value.trim();
    return trimmed === "" ? undefined : trimmed;
  }, schema.optional());
}

/** Plain decimal digits only: "1e6", "0x10" and "12abc" are typos, not numbers. */
const wholeNumber = z
  .string()
  .trim()
  .regex(/^\d+$/, "must be a whole number")
  .transform(Number)
  .pipe(z.number().int("must be a whole number"));
const decimalNumber = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$|^\.\d+$/, "must be a number")
  .transform(Number);
const positiveInt = wholeNumber.pipe(z.number().positive("must be a whole number above 0"));
const nonNegativeInt = wholeNumber;
const fraction = decimalNumber.pipe(
  z.number().gt(0, "must be a fraction above 0").max(1, "must be a fraction of at most 1"),
);
const commaList = z.string().transform((raw) =>
  raw
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean),
);
const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .transform((u) => u.replace(/\/+$/, ""));
const origin = z
  .url({ protocol: /^https?$/, error: "must be http(s) origins" })
  .transform((u) => new URL(u).origin);
/** `N/Ws`, `N/Wm` or `N/Wh`: at most N requests per window (e.g. `10/60s`). */
const rateLimit = z
  .string()
  .regex(/^\d+\/\d+[smh]$/, "must look like 10/60s (requests per window)")
  .transform((raw) => {
    const [count = "0", window = "0s"] = raw.split("/");
    const unit = window.slice(-1);
    const seconds = Number(window.slice(0, -1)) * (unit === "h" ? 3600 : unit === "m" ? 60 : 1);
    return { points: Number(count), durationSeconds: seconds };
  })
  .refine((r) => r.points > 0 && r.durationSeconds > 0, "needs a positive count and window");

export const envSchema = z
  .object({
    NODE_ENV: optional(z.enum(["development", "production", "test"])),
    PORT: optional(positiveInt),
    // Database and data folder.
    DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")),
    BATON_DATA_DIR: optional(z.string()),
    // Auth and the app's public origins.
    BETTER_AUTH_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
    BETTER_AUTH_URL: optional(httpUrl),
    BATON_ALLOWED_HOSTS: optional(commaList),
    BATON_PUBLIC_ORIGINS: optional(
      z.string().transform((raw, ctx) => {
        const items = commaList.parse(raw);
        const parsed: string[] = [];
        for (const item of items) {
          const result = origin.safeParse(item);
          if (!result.success) {
            ctx.addIssue({ code: "custom", message: `"${item}" is not an http(s) origin` });
            return z.NEVER;
          }
          parsed.push(result.data);
        }
        return parsed;
      }),
    ),
    /** How many reverse proxies in front of Baton append to X-Forwarded-For (0: trust none). */
    BATON_TRUST_PROXY: optional(nonNegativeInt),
    /** Tool-server hosts (`host` or `host:port`) reachable even on private or loopback addresses. */
    BATON_MCP_ALLOWED_HOSTS: optional(
      commaList.transform((items) => items.map((item) => item.toLowerCase())),
    ),
    REDIS_URL: optional(z.string().regex(/^rediss?:\/\//, "must be a redis:// URL")),
    /** Turns on GET /api/metrics, for callers that send it as a bearer token. */
    BATON_METRICS_TOKEN: optional(z.string().min(16, "must be at least 16 characters")),
    /** The least severe log lines printed: debug, info (the default), warn or error. */
    BATON_LOG_LEVEL: optional(
      z.enum(["debug", "info", "warn", "error"], { error: "must be debug, info, warn or error" }),
    ),
    // Rate limits (requests per window).
    BATON_RATE_LIMIT_SIGN_IN: optional(rateLimit),
    BATON_RATE_LIMIT_SIGN_UP: optional(rateLimit),
    BATON_RATE_LIMIT_GUEST: optional(rateLimit),
    BATON_RATE_LIMIT_CHAT: optional(rateLimit),
    BATON_RATE_LIMIT_API: optional(rateLimit),
    // Model providers.
    OPENAI_API_KEY: optional(z.string()),
    OPENAI_BASE_URL: optional(httpUrl),
    OPENAI_API_MODE: optional(z.enum(["responses", "chat"])),
    OPENAI_MODELS: optional(z.string()),
    ANTHROPIC_API_KEY: optional(z.string()),
    ANTHROPIC_BASE_URL: optional(httpUrl),
    ANTHROPIC_MODELS: optional(z.string()),
    OPENAI_COMPATIBLE_BASE_URL: optional(httpUrl),
    OPENAI_COMPATIBLE_MODELS: optional(z.string()),
    OPENAI_COMPATIBLE_API_KEY: optional(z.string()),
    OPENAI_COMPATIBLE_CONTEXT_WINDOW: optional(positiveInt),
    OLLAMA_CONTEXT_LENGTH: optional(positiveInt),
    BATON_MODEL: optional(z.string()),
    BATON_CONTEXT_WINDOW: optional(positiveInt),
    BATON_MODELS_WITHOUT_TOOLS: optional(z.string()),
    // The offline model.
    BATON_LOCAL_CONTEXT_WINDOW: optional(positiveInt),
    BATON_LOCAL_DELAY_MS: optional(nonNegativeInt),
    BATON_LOCAL_HANDOFF_DELAY_MS: optional(nonNegativeInt),
    // Context policy and handoffs.
    BATON_RESET_THRESHOLD: optional(fraction),
    BATON_COMPACT_THRESHOLD: optional(fraction),
    BATON_HANDOFF_TTL_DAYS: optional(decimalNumber.pipe(z.number().positive("must be above 0"))),
    BATON_DRAFT_TTL_HOURS: optional(decimalNumber.pipe(z.number().positive("must be above 0"))),
    BATON_DRAFT_THRESHOLD: optional(z.union([z.literal("off"), fraction])),
  })
  // Compaction runs before a reset, never after: the default profile needs compact ≤ reset.
  .superRefine((env, ctx) => {
    const reset = env.BATON_RESET_THRESHOLD ?? DEFAULT_RESET_THRESHOLD;
    const compact = env.BATON_COMPACT_THRESHOLD ?? DEFAULT_COMPACT_THRESHOLD;
    const inRange = (t: number) => t > 0 && t <= 1; // else its own issue is already reported
    if (inRange(reset) && inRange(compact) && compact > reset) {
      ctx.addIssue({
        code: "custom",
        path: ["BATON_COMPACT_THRESHOLD"],
        message: `must not exceed BATON_RESET_THRESHOLD (${compact} > ${reset}); set both`,
      });
    }
  });

export type ServerEnv = z.output<typeof envSchema>;
export type RawEnv = Record<string, string | undefined>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses an environment record; throws an EnvError naming every malformed variable. */
export function parseEnv(source: RawEnv): ServerEnv {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  throw new EnvError(
    result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
  );
}

/**
 * What a parsed environment lacks to run as configured, beyond each variable's own shape. These
 * are start-up rules (a server refuses to start), not parsing rules: code that only reads a
 * variable, such as a test of the Redis rate limits with REDIS_URL alone, still gets its value.
 */
function deploymentProblems(env: ServerEnv): string[] {
  const problems: string[] = [];
  // Multi-server mode: every server behind one address must accept the session cookies the
  // others signed. Without the variable each server would use the secret generated into its own
  // data folder, and a request that lands on another server would be signed out.
  if (env.REDIS_URL && !env.BETTER_AUTH_SECRET) {
    problems.push(
      "BETTER_AUTH_SECRET: required when REDIS_URL is set (multi-server mode), so that every " +
        "server signs sessions with the same secret: generate one (openssl rand -base64 32) " +
        "and give the same value to every server",
    );
  }
  return problems;
}

/** The start-up message for an environment a server cannot start with, or null when it can. */
export function envProblem(source: RawEnv): string | null {
  try {
    const problems = deploymentProblems(parseEnv(source));
    return problems.length > 0 ? new EnvError(problems).message : null;
  } catch (error) {
    if (error instanceof EnvError) return error.message;
    throw error;
  }
}

/**
 * Called by next.config.ts, which `next dev`, `next build` and `next start` evaluate before
 * anything else, and by instrumentation.ts: a malformed variable, or a deployment rule broken
 * (deploymentProblems), ends the process with exit code 1 and names the variable.
 */
export function exitOnInvalidEnv(source: RawEnv = process.env): void {
  const problem = envProblem(source);
  if (problem === null) return;
  // Not through core/log.ts: next.config.ts runs this before the app exists, and its loader cannot
  // resolve the redaction engine's imports. The text names variables and rules, never values.
  process.stderr.write(
    `[baton] Baton cannot start. ${problem}\nFix them (see .env.example) and start again.\n`,
  );
  process.exit(1);
}

let cached: { source: string; env: ServerEnv } | null = null;

/**
 * The process's environment, parsed. Re-parsed when a variable changed (tests and the offline
 * model's delays change them between calls); otherwise the cached result.
 */
export function serverEnv(): ServerEnv {
  const source = JSON.stringify(relevant(process.env));
  if (cached?.source !== source) cached = { source, env: parseEnv(process.env) };
  return cached.env;
}

function relevant(source: RawEnv): RawEnv {
  const out: RawEnv = {};
  for (const key of Object.keys(envSchema.shape)) out[key] = source[key];
  return out;
}
