// An agent profile as the API returns it, and the limits its fields keep. No server imports: the
// settings page parses responses with this schema and sizes its inputs with these limits.
import { z } from "zod";

/** A profile's slug: its public name in tools, the API and `threads.profile`. */
export const PROFILE_SLUG_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;

/** The built-in profile's slug; it has no row and cannot be created, changed or deleted. */
export const BUILTIN_PROFILE_ID = "default";

export const PROFILE_LIMITS = {
  nameMax: 80,
  descriptionMax: 500,
  systemPromptMax: 20_000,
  maxStepsMin: 1,
  maxStepsMax: 200,
  maxHandoffDepthMin: 0,
  maxHandoffDepthMax: 10,
  /** More callers than agents anyone keeps; a bound so a body cannot grow without limit. */
  allowedCallersMax: 100,
} as const;

export const CONTEXT_STRATEGIES = ["auto", "reset", "compact", "off"] as const;

const profileDelegationSchema = z.object({
  canHandoff: z.boolean(),
  callable: z.boolean(),
  allowAsHandoffTarget: z.boolean(),
  allowedCallers: z.union([z.literal("*"), z.array(z.string())]),
  maxHandoffDepth: z.number().int(),
});

const timestamp = z.iso.datetime({ offset: true });

export const profileViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  systemPrompt: z.string(),
  /** Null: the thread's model. */
  model: z.string().nullable(),
  contextStrategy: z.enum(CONTEXT_STRATEGIES),
  resetThreshold: z.number(),
  compactThreshold: z.number(),
  maxSteps: z.number().int(),
  briefShare: z.number(),
  reviewResets: z.enum(["never", "manual", "always"]),
  /** Null: the handoff is never drafted ahead. */
  draftThreshold: z.number().nullable(),
  tools: z.object({ allow: z.array(z.string()) }),
  delegation: profileDelegationSchema,
  /** The built-in `default` profile: readable, never changed. */
  builtIn: z.boolean(),
  /** Null for the built-in profile, which is not stored. */
  createdAt: timestamp.nullable(),
  updatedAt: timestamp.nullable(),
});
export type ProfileView = z.output<typeof profileViewSchema>;

/** An agent as a thread's agent picker offers it. */
export interface AgentOption {
  id: string;
  name: string;
}
