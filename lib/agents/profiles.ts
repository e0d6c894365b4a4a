// Agent profiles: the system prompt, model and context policy a thread runs with. The built-in
// `default` profile needs no row; others live in agent_profiles (owned, or shared when ownerless).
import "server-only";
import { getProfile } from "@/db/queries/profiles";
import type { StrategySetting } from "@/lib/ai/registry";
import {
  DEFAULT_COMPACT_THRESHOLD,
  DEFAULT_RESET_THRESHOLD,
  profileThresholdsSchema,
} from "@/lib/context/policy";
import { serverEnv } from "@/lib/env";

export interface Profile {
  id: string;
  name: string;
  systemPrompt: string;
  /** Null: use the thread's selected model. */
  model: string | null;
  contextStrategy: StrategySetting;
  resetThreshold: number;
  compactThreshold: number;
  /** Steps (model calls, each with its tool calls) one run may take, across its sessions. */
  maxSteps: number;
}

/** A run's step limit when the profile sets none. */
export const DEFAULT_MAX_STEPS = 25;

export const DEFAULT_SYSTEM_PROMPT =
  "You are Baton, a helpful assistant for long-running work. Answer clearly and concisely. " +
  "When context from a previous session is carried over, treat it as the complete record of " +
  "earlier work: what it does not say is unknown, not remembered.";

/** The built-in profile; its thresholds come from BATON_RESET_THRESHOLD / BATON_COMPACT_THRESHOLD. */
export function defaultProfile(): Profile {
  const env = serverEnv();
  return {
    id: "default",
    name: "Default",
    systemPrompt: DEFAULT_SYSTEM_PROMPT,
    model: null,
    contextStrategy: "auto",
    resetThreshold: env.BATON_RESET_THRESHOLD ?? DEFAULT_RESET_THRESHOLD,
    compactThreshold: env.BATON_COMPACT_THRESHOLD ?? DEFAULT_COMPACT_THRESHOLD,
    maxSteps: DEFAULT_MAX_STEPS,
  };
}

export async function resolveProfile({
  userId,
  profileId,
}: {
  userId: string;
  profileId: string;
}): Promise<Profile> {
  if (profileId === "default") return defaultProfile();
  const row = await getProfile({ userId, profileId });
  if (!row) return defaultProfile();
  const thresholds = profileThresholdsSchema.safeParse({
    resetThreshold: row.resetThreshold,
    compactThreshold: row.compactThreshold,
  });
  return {
    id: row.id,
    name: row.name,
    systemPrompt: row.systemPrompt,
    model: row.model,
    contextStrategy: row.contextStrategy,
    maxSteps: row.maxSteps > 0 ? row.maxSteps : DEFAULT_MAX_STEPS,
    ...(thresholds.success
      ? thresholds.data
      : { resetThreshold: DEFAULT_RESET_THRESHOLD, compactThreshold: DEFAULT_COMPACT_THRESHOLD }),
  };
}
