// Agent profiles: the identity, system prompt, model, tools and context policy a thread runs
// with. The built-in `default` profile needs no row; a user's own live in agent_profiles, keyed
// by (owner, slug).
import "server-only";
import { serverEnv } from "@/core/env";
import { BatonError } from "@/core/errors";
import { BUILTIN_TOOL_NAMES, TRANSFER_TOOL_NAMES } from "@/core/tool-names";
import { getProfile, listProfiles } from "@/db/queries/profiles";
import type { AgentProfile, ProfileDelegation, ReviewResets } from "@/db/schema";
import { listConfiguredModels } from "@/lib/ai/providers";
import type { StrategySetting } from "@/lib/ai/registry";
import {
  DEFAULT_BRIEF_SHARE,
  DEFAULT_COMPACT_THRESHOLD,
  DEFAULT_DRAFT_THRESHOLD,
  DEFAULT_RESET_THRESHOLD,
  DEFAULT_REVIEW_RESETS,
  profileThresholdsSchema,
  REVIEW_RESETS,
} from "@/lib/context/policy";

export interface Profile {
  /** The slug: the agent's public name (what handoff_to_agent and list_agents use). */
  id: string;
  name: string;
  description: string;
  systemPrompt: string;
  /** Null: use the thread's selected model. */
  model: string | null;
  contextStrategy: StrategySetting;
  resetThreshold: number;
  compactThreshold: number;
  /** Steps (model calls, each with its tool calls) one run may take, across its sessions. */
  maxSteps: number;
  /** The largest share of the context window the brief a reset carries over may take. */
  briefShare: number;
  /** Whether resets wait for the user's review of the drafted handoff (never, manual, always). */
  reviewResets: ReviewResets;
  /** Utilization past which the next handoff is drafted ahead; null: never drafted ahead. */
  draftThreshold: number | null;
  /** Tool names this agent may call (built-in names, `handoff_to_agent`, `list_agents`). */
  toolsAllow: string[];
  delegation: ProfileDelegation;
}

/** The tools every agent may call unless its profile says otherwise: the built-in ones. */
export {
  BUILTIN_TOOL_NAMES as BUILTIN_TOOL_ALLOW,
  TRANSFER_TOOL_NAMES,
} from "@/core/tool-names";

export const DEFAULT_DELEGATION: ProfileDelegation = {
  canHandoff: false,
  callable: true,
  allowAsHandoffTarget: true,
  allowedCallers: "*",
  maxHandoffDepth: 3,
};

/** A run's step limit when the profile sets none. */
export const DEFAULT_MAX_STEPS = 25;

export const DEFAULT_SYSTEM_PROMPT =
  "You are Baton, a helpful assistant for long-running work. Answer clearly and concisely. " +
  "When context from a previous session is carried over, treat it as the complete record of " +
  "earlier work: what it does not say is unknown, not remembered.";

/**
 * The built-in profile; its thresholds come from BATON_RESET_THRESHOLD, BATON_COMPACT_THRESHOLD
 * and BATON_DRAFT_THRESHOLD ("off": never drafted ahead).
 */
export function defaultProfile(): Profile {
  const env = serverEnv();
  return {
    id: "default",
    name: "Default",
    description: "Baton's built-in general assistant.",
    systemPrompt: DEFAULT_SYSTEM_PROMPT,
    model: null,
    contextStrategy: "auto",
    resetThreshold: env.BATON_RESET_THRESHOLD ?? DEFAULT_RESET_THRESHOLD,
    compactThreshold: env.BATON_COMPACT_THRESHOLD ?? DEFAULT_COMPACT_THRESHOLD,
    maxSteps: DEFAULT_MAX_STEPS,
    briefShare: DEFAULT_BRIEF_SHARE,
    reviewResets: DEFAULT_REVIEW_RESETS,
    draftThreshold: draftThresholdOf(env.BATON_DRAFT_THRESHOLD),
    toolsAllow: [...BUILTIN_TOOL_NAMES, ...TRANSFER_TOOL_NAMES],
    delegation: { ...DEFAULT_DELEGATION, canHandoff: true },
  };
}

function draftThresholdOf(setting: number | "off" | undefined): number | null {
  if (setting === "off") return null;
  return setting ?? DEFAULT_DRAFT_THRESHOLD;
}

const REVIEW_SETTINGS = new Set<string>(REVIEW_RESETS);

/** A profile as the run uses it: a stored row with its thresholds checked. */
export function profileOf(row: AgentProfile): Profile {
  const thresholds = profileThresholdsSchema.safeParse({
    resetThreshold: row.resetThreshold,
    compactThreshold: row.compactThreshold,
  });
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    systemPrompt: row.systemPrompt,
    model: row.model,
    contextStrategy: row.contextStrategy,
    maxSteps: row.maxSteps > 0 ? row.maxSteps : DEFAULT_MAX_STEPS,
    briefShare: row.briefShare > 0 && row.briefShare <= 1 ? row.briefShare : DEFAULT_BRIEF_SHARE,
    reviewResets: REVIEW_SETTINGS.has(row.reviewResets) ? row.reviewResets : DEFAULT_REVIEW_RESETS,
    draftThreshold:
      row.draftThreshold === null
        ? null
        : row.draftThreshold > 0 && row.draftThreshold <= 1
          ? row.draftThreshold
          : DEFAULT_DRAFT_THRESHOLD,
    toolsAllow: row.toolsAllow,
    delegation: { ...DEFAULT_DELEGATION, ...row.delegation },
    ...(thresholds.success
      ? thresholds.data
      : { resetThreshold: DEFAULT_RESET_THRESHOLD, compactThreshold: DEFAULT_COMPACT_THRESHOLD }),
  };
}

/** The user's profile `profileId`, or null when there is none (never another user's). */
export async function findProfile({
  userId,
  profileId,
}: {
  userId: string;
  profileId: string;
}): Promise<Profile | null> {
  if (profileId === "default") return defaultProfile();
  const row = await getProfile({ userId, profileId });
  return row ? profileOf(row) : null;
}

/** The user's profile `profileId`; a missing one is an error, never a silent fallback. */
export async function resolveProfile(input: {
  userId: string;
  profileId: string;
}): Promise<Profile> {
  const found = await findProfile(input);
  if (!found) {
    throw new BatonError(
      "not_found:profile",
      `The agent profile "${input.profileId}" does not exist.`,
    );
  }
  return found;
}

/** Every agent the user can run: the built-in default first, then their own. */
export async function listAgents(userId: string): Promise<Profile[]> {
  const rows = await listProfiles({ userId });
  return [defaultProfile(), ...rows.map(profileOf)];
}

/**
 * The model an agent runs on: its own when its profile names one, else the thread's. A profile
 * naming a model this server has not configured is an error, never a silent fallback.
 */
export function agentModelId(profile: Profile, threadModelId: string): string {
  if (!profile.model) return threadModelId;
  if (!listConfiguredModels().some((m) => m.id === profile.model)) {
    throw new BatonError(
      "unavailable:model",
      `The agent ${profile.name} runs on the model "${profile.model}", which this server has not configured.`,
    );
  }
  return profile.model;
}
