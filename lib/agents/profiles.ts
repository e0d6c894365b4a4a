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

export interface Profile {
  id: string;
  name: string;
  systemPrompt: string;
  /** Null: use the thread's selected model. */
  model: string | null;
  contextStrategy: StrategySetting;
  resetThreshold: number;
  compactThreshold: number;
}

export const DEFAULT_SYSTEM_PROMPT =
  "You are Baton, a helpful assistant for long-running work. Answer clearly and concisely. " +
  "When context from a previous session is carried over, treat it as the complete record of " +
  "earlier work: what it does not say is unknown, not remembered.";

function envThreshold(name: string, fallback: number): number {
  const raw = process.env[name];
  const value = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(value) && value > 0 && value <= 1 ? value : fallback;
}

export function defaultProfile(): Profile {
  return {
    id: "default",
    name: "Default",
    systemPrompt: DEFAULT_SYSTEM_PROMPT,
    model: null,
    contextStrategy: "auto",
    resetThreshold: envThreshold("BATON_RESET_THRESHOLD", DEFAULT_RESET_THRESHOLD),
    compactThreshold: envThreshold("BATON_COMPACT_THRESHOLD", DEFAULT_COMPACT_THRESHOLD),
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
    ...(thresholds.success
      ? thresholds.data
      : { resetThreshold: DEFAULT_RESET_THRESHOLD, compactThreshold: DEFAULT_COMPACT_THRESHOLD }),
  };
}
