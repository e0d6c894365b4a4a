// Every environment variable Baton reads, parsed in one place. A malformed value stops the server
// at start-up with a message naming the variable; empty strings count as unset (`.env` files
// often carry `OPENAI_API_KEY=`). Nothing outside this module reads `process.env`.
import { z } from "zod";

/** Unset and "" both mean "use the default". */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    schema.optional(),
  );
}

const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().min(0);
const fraction = z.coerce
  .number()
  .gt(0, "must be a fraction above 0")
  .max(1, "must be a fraction of at most 1");
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

export const envSchema = z.object({
  NODE_ENV: optional(z.enum(["development", "production", "test"])),
  PORT: optional(positiveInt),
  // Database and data folder.
  DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")),
  BATON_DATA_DIR: optional(z.string()),
  // Auth and the app's public origins.
  BETTER_AUTH_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
  BETTER_AUTH_URL: optional(httpUrl),
  BATON_ALLOWED_HOSTS: optional(commaList),
  BATON_PUBLIC_ORIGINS: optional(z.string().transform((raw, ctx) => {
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
  })),
  /** How many reverse proxies in front of Baton append to X-Forwarded-For (0: trust none). */
  BATON_TRUST_PROXY: optional(nonNegativeInt),
  REDIS_URL: optional(z.string().regex(/^rediss?:\/\//, "must be a redis:// URL")),
  // Rate limits (requests per window).
  BATON_RATE_LIMIT_SIGN_IN: optional(rateLimit),
  BATON_RATE_LIMIT_SIGN_UP: optional(rateLimit),
  BATON_RATE_LIMIT_GUEST: optional(rateLimit),
  BATON_RATE_LIMIT_CHAT: optional(rateLimit),
  BATON_RATE_LIMIT_API: optional(rateLimit),
  // Model providers.
  OPENAI_API_KEY: optional(z.string()),
  OPENAI_BASE_URL: optional(httpUrl),
  OPENAI_MODELS: optional(z.string()),
  ANTHROPIC_API_KEY: optional(z.string()),
  ANTHROPIC_BASE_URL: optional(httpUrl),
  ANTHROPIC_MODELS: optional(z.string()),
  OPENAI_COMPATIBLE_BASE_URL: optional(httpUrl),
  OPENAI_COMPATIBLE_MODELS: optional(z.string()),
  OPENAI_COMPATIBLE_API_KEY: optional(z.string()),
  OPENAI_COMPATIBLE_CONTEXT_WINDOW: optional(positiveInt),
  BATON_MODEL: optional(z.string()),
  BATON_CONTEXT_WINDOW: optional(positiveInt),
  // The offline model.
  BATON_LOCAL_CONTEXT_WINDOW: optional(positiveInt),
  BATON_LOCAL_DELAY_MS: optional(nonNegativeInt),
  BATON_LOCAL_HANDOFF_DELAY_MS: optional(nonNegativeInt),
  // Context policy and handoffs.
  BATON_RESET_THRESHOLD: optional(fraction),
  BATON_COMPACT_THRESHOLD: optional(fraction),
  BATON_HANDOFF_TTL_DAYS: optional(z.coerce.number().positive()),
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
