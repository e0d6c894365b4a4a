// What POST /api/profiles and PATCH /api/profiles/{slug} accept (docs/agents.md). Strict: an
// unknown key is a field error. A patch's thresholds and delegation are checked again against
// the stored profile they merge into (lib/agents/profile-api.ts).
import "server-only";
import { z } from "zod";
import { MCP_ALLOW_PATTERN } from "@/core/mcp-tool-names";
import { listConfiguredModels } from "@/lib/ai/providers";
import {
  DEFAULT_BRIEF_SHARE,
  DEFAULT_COMPACT_THRESHOLD,
  DEFAULT_DRAFT_THRESHOLD,
  DEFAULT_RESET_THRESHOLD,
  DEFAULT_REVIEW_RESETS,
  profileThresholdsSchema,
  REVIEW_RESETS,
} from "@/lib/context/policy";
import {
  BUILTIN_PROFILE_ID,
  CONTEXT_STRATEGIES,
  PROFILE_LIMITS,
  PROFILE_SLUG_PATTERN,
} from "./profile-view";
import {
  BUILTIN_TOOL_ALLOW,
  DEFAULT_DELEGATION,
  DEFAULT_MAX_STEPS,
  TRANSFER_TOOL_NAMES,
} from "./profiles";

/** Every tool name a profile may allow. */
export const PROFILE_TOOL_NAMES = [...BUILTIN_TOOL_ALLOW, ...TRANSFER_TOOL_NAMES] as const;

const SLUG_MESSAGE =
  "Use 1–40 lowercase letters, digits and hyphens, starting with a letter (e.g. writer).";

/** Any agent's slug, the built-in `default` included (a caller may be the default agent). */
export const profileSlugSchema = z.string().regex(PROFILE_SLUG_PATTERN, SLUG_MESSAGE);

/** The slug of a new profile: `default` is taken by the built-in one. */
const newSlugSchema = profileSlugSchema.refine((slug) => slug !== BUILTIN_PROFILE_ID, {
  message: `"${BUILTIN_PROFILE_ID}" is the built-in agent's name; choose another.`,
});

const nameSchema = z
  .string()
  .trim()
  .min(1, "Give the agent a name.")
  .max(PROFILE_LIMITS.nameMax, `A name is at most ${PROFILE_LIMITS.nameMax} characters.`);

const descriptionSchema = z
  .string()
  .trim()
  .max(
    PROFILE_LIMITS.descriptionMax,
    `A description is at most ${PROFILE_LIMITS.descriptionMax} characters.`,
  );

const systemPromptSchema = z
  .string()
  .trim()
  .min(1, "Write the agent's system prompt.")
  .max(
    PROFILE_LIMITS.systemPromptMax,
    `A system prompt is at most ${PROFILE_LIMITS.systemPromptMax.toLocaleString("en")} characters.`,
  );

/** A configured model id, or null for the thread's model; read at parse time from the env. */
const modelSchema = z
  .string()
  .refine((id) => listConfiguredModels().some((m) => m.id === id), {
    message: "Choose one of the configured models, or the thread's model.",
  })
  .nullable();

const thresholdSchema = z
  .number()
  .gt(0, "A threshold is above 0.")
  .lte(1, "A threshold is at most 1.");

const briefShareSchema = z
  .number()
  .gt(0, "A brief share is above 0.")
  .lte(1, "A brief share is at most 1.");

const reviewResetsSchema = z.enum(REVIEW_RESETS, {
  message: 'One of "never", "manual" (the reset button\'s resets) or "always".',
});

/** Null turns drafting ahead off. */
const draftThresholdSchema = z
  .number()
  .gt(0, "A draft threshold is above 0.")
  .lte(1, "A draft threshold is at most 1.")
  .nullable();

const maxStepsSchema = z
  .number()
  .int("A whole number of steps.")
  .min(PROFILE_LIMITS.maxStepsMin, `At least ${PROFILE_LIMITS.maxStepsMin} step.`)
  .max(PROFILE_LIMITS.maxStepsMax, `At most ${PROFILE_LIMITS.maxStepsMax} steps.`);

const dedupe = <T>(list: T[]): T[] => [...new Set(list)];

/** Built-in names plus `mcp:<server>/<tool>` or `mcp:<server>/*` entries. */
const MAX_TOOL_ALLOW = 250;

const builtinNames = new Set<string>(PROFILE_TOOL_NAMES);

const toolAllowSchema = z
  .string()
  .refine((name) => builtinNames.has(name) || MCP_ALLOW_PATTERN.test(name), {
    message:
      "Not a tool an agent can use (a built-in tool, mcp:<server>/<tool> or mcp:<server>/*).",
  });

const toolsSchema = z.strictObject({
  allow: z.array(toolAllowSchema).max(MAX_TOOL_ALLOW, "Too many tool names.").transform(dedupe),
});

const callerListSchema = z
  .array(profileSlugSchema)
  .max(PROFILE_LIMITS.allowedCallersMax, `At most ${PROFILE_LIMITS.allowedCallersMax} callers.`)
  .transform(dedupe);

/**
 * "*" or a list of slugs. Not a z.union: a union that fails reports only its own message, and
 * a list with one bad slug should say which one and why.
 */
const allowedCallersSchema = z.unknown().transform((value, ctx): "*" | string[] => {
  if (value === "*") return "*";
  if (!Array.isArray(value)) {
    ctx.addIssue({ code: "custom", message: 'Either "*" (any agent) or a list of agent slugs.' });
    return z.NEVER;
  }
  const parsed = callerListSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  }
  return z.NEVER;
});

/** A partial ProfileDelegation: what it leaves out keeps its current (or default) value. */
const delegationPatchSchema = z
  .strictObject({
    canHandoff: z.boolean(),
    callable: z.boolean(),
    allowAsHandoffTarget: z.boolean(),
    allowedCallers: allowedCallersSchema,
    maxHandoffDepth: z
      .number()
      .int("A whole number of transfers.")
      .min(PROFILE_LIMITS.maxHandoffDepthMin, "At least 0.")
      .max(PROFILE_LIMITS.maxHandoffDepthMax, `At most ${PROFILE_LIMITS.maxHandoffDepthMax}.`),
  })
  .partial();

/** Reports the pair's problems (profileThresholdsSchema's rules) on `ctx`, under their fields. */
function checkThresholds(
  pair: { resetThreshold: number; compactThreshold: number },
  ctx: z.RefinementCtx,
): void {
  const parsed = profileThresholdsSchema.safeParse(pair);
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  }
}

export const createProfileBodySchema = z
  .strictObject({
    id: newSlugSchema,
    name: nameSchema,
    description: descriptionSchema.default(""),
    systemPrompt: systemPromptSchema,
    model: modelSchema.default(null),
    contextStrategy: z.enum(CONTEXT_STRATEGIES).default("auto"),
    resetThreshold: thresholdSchema.default(DEFAULT_RESET_THRESHOLD),
    compactThreshold: thresholdSchema.default(DEFAULT_COMPACT_THRESHOLD),
    maxSteps: maxStepsSchema.default(DEFAULT_MAX_STEPS),
    briefShare: briefShareSchema.default(DEFAULT_BRIEF_SHARE),
    reviewResets: reviewResetsSchema.default(DEFAULT_REVIEW_RESETS),
    draftThreshold: draftThresholdSchema.default(DEFAULT_DRAFT_THRESHOLD),
    tools: toolsSchema.default({ allow: [...BUILTIN_TOOL_ALLOW] }),
    delegation: delegationPatchSchema
      .default({})
      .transform((given) => ({ ...DEFAULT_DELEGATION, ...given })),
  })
  .superRefine(checkThresholds);
export type CreateProfileBody = z.output<typeof createProfileBodySchema>;

export const patchProfileBodySchema = z
  .strictObject({
    name: nameSchema,
    description: descriptionSchema,
    systemPrompt: systemPromptSchema,
    model: modelSchema,
    contextStrategy: z.enum(CONTEXT_STRATEGIES),
    resetThreshold: thresholdSchema,
    compactThreshold: thresholdSchema,
    maxSteps: maxStepsSchema,
    briefShare: briefShareSchema,
    reviewResets: reviewResetsSchema,
    draftThreshold: draftThresholdSchema,
    tools: toolsSchema,
    delegation: delegationPatchSchema,
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, {
    message: "Nothing to change: send at least one field.",
  });
export type PatchProfileBody = z.output<typeof patchProfileBodySchema>;

/** The `{slug}` path segment; a malformed one names no profile (404, like a missing one). */
export const profileParamsSchema = z.object({ slug: profileSlugSchema });
