// The agent profile API behind /api/profiles (docs/agents.md): the built-in profile is readable
// but never changed, a user's own are created, patched and deleted, and every profile leaves as
// one JSON shape (profileJson), parsed so no stored column leaks.
import "server-only";
import { BatonError, fieldErrorsOf } from "@/core/errors";
import {
  createProfile,
  deleteProfile,
  getProfile,
  listProfiles,
  type ProfileFields,
  updateProfile,
} from "@/db/queries/profiles";
import type { AgentProfile } from "@/db/schema";
import {
  DEFAULT_BRIEF_SHARE,
  DEFAULT_COMPACT_THRESHOLD,
  DEFAULT_DRAFT_THRESHOLD,
  DEFAULT_RESET_THRESHOLD,
  DEFAULT_REVIEW_RESETS,
  profileThresholdsSchema,
} from "@/lib/context/policy";
import type { CreateProfileBody, PatchProfileBody } from "./profile-schema";
import {
  type AgentOption,
  BUILTIN_PROFILE_ID,
  type ProfileView,
  profileViewSchema,
} from "./profile-view";
import {
  BUILTIN_TOOL_ALLOW,
  DEFAULT_DELEGATION,
  DEFAULT_MAX_STEPS,
  defaultProfile,
  listAgents,
  type Profile,
  profileOf,
} from "./profiles";

/** A profile as the API returns it: the built-in one has no row, so no timestamps. */
function profileJson(profile: Profile, row: AgentProfile | null): ProfileView {
  return profileViewSchema.parse({
    id: profile.id,
    name: profile.name,
    description: profile.description,
    systemPrompt: profile.systemPrompt,
    model: profile.model,
    contextStrategy: profile.contextStrategy,
    resetThreshold: profile.resetThreshold,
    compactThreshold: profile.compactThreshold,
    maxSteps: profile.maxSteps,
    briefShare: profile.briefShare,
    reviewResets: profile.reviewResets,
    draftThreshold: profile.draftThreshold,
    tools: { allow: profile.toolsAllow },
    delegation: profile.delegation,
    builtIn: row === null,
    createdAt: row?.createdAt.toISOString() ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  });
}

const rowJson = (row: AgentProfile) => profileJson(profileOf(row), row);

/** What a new profile holds unless its creator says otherwise (the create schema's defaults). */
export function newProfileDefaults(): ProfileView {
  return {
    id: "",
    name: "",
    description: "",
    systemPrompt: "",
    model: null,
    contextStrategy: "auto",
    resetThreshold: DEFAULT_RESET_THRESHOLD,
    compactThreshold: DEFAULT_COMPACT_THRESHOLD,
    maxSteps: DEFAULT_MAX_STEPS,
    briefShare: DEFAULT_BRIEF_SHARE,
    reviewResets: DEFAULT_REVIEW_RESETS,
    draftThreshold: DEFAULT_DRAFT_THRESHOLD,
    tools: { allow: [...BUILTIN_TOOL_ALLOW] },
    delegation: { ...DEFAULT_DELEGATION },
    builtIn: false,
    createdAt: null,
    updatedAt: null,
  };
}

export function profileNotFound(): BatonError {
  return new BatonError("not_found:profile", "Agent not found.");
}

function builtInIsReadOnly(): BatonError {
  return new BatonError(
    "forbidden:builtin_profile",
    "The built-in Default agent cannot be changed or deleted; create your own agent instead.",
  );
}

/** The built-in profile first, then the user's by name. */
export async function listProfileViews({ userId }: { userId: string }): Promise<ProfileView[]> {
  const rows = await listProfiles({ userId });
  return [profileJson(defaultProfile(), null), ...rows.map(rowJson)];
}

/** The agents a thread may run with, as its picker shows them (same order as the list). */
export async function listAgentOptions({ userId }: { userId: string }): Promise<AgentOption[]> {
  return (await listAgents(userId)).map((p) => ({ id: p.id, name: p.name }));
}

export async function getProfileView({
  userId,
  profileId,
}: {
  userId: string;
  profileId: string;
}): Promise<ProfileView> {
  if (profileId === BUILTIN_PROFILE_ID) return profileJson(defaultProfile(), null);
  const row = await getProfile({ userId, profileId });
  if (!row) throw profileNotFound();
  return rowJson(row);
}

export async function createProfileView({
  userId,
  body,
}: {
  userId: string;
  body: CreateProfileBody;
}): Promise<ProfileView> {
  const { id, tools, ...rest } = body;
  const row = await createProfile({
    userId,
    profileId: id,
    fields: { ...rest, toolsAllow: tools.allow },
  });
  return rowJson(row);
}

/**
 * A patch merges into the stored profile: the thresholds are checked as the pair they become,
 * and a partial delegation keeps the fields it leaves out.
 */
function mergedFields(row: AgentProfile, patch: PatchProfileBody): Partial<ProfileFields> {
  const { tools, delegation, ...rest } = patch;
  const pair = {
    resetThreshold: patch.resetThreshold ?? row.resetThreshold,
    compactThreshold: patch.compactThreshold ?? row.compactThreshold,
  };
  const thresholds = profileThresholdsSchema.safeParse(pair);
  if (!thresholds.success) {
    throw new BatonError(
      "bad_request:body",
      "The request is invalid.",
      fieldErrorsOf(thresholds.error),
    );
  }
  return {
    ...rest,
    ...(tools ? { toolsAllow: tools.allow } : {}),
    ...(delegation
      ? { delegation: { ...DEFAULT_DELEGATION, ...row.delegation, ...delegation } }
      : {}),
  };
}

export async function updateProfileView({
  userId,
  profileId,
  patch,
}: {
  userId: string;
  profileId: string;
  patch: PatchProfileBody;
}): Promise<ProfileView> {
  if (profileId === BUILTIN_PROFILE_ID) throw builtInIsReadOnly();
  const updated = await updateProfile({
    userId,
    profileId,
    change: (row) => mergedFields(row, patch),
  });
  if (!updated) throw profileNotFound();
  return rowJson(updated);
}

export async function deleteProfileBySlug({
  userId,
  profileId,
}: {
  userId: string;
  profileId: string;
}): Promise<void> {
  if (profileId === BUILTIN_PROFILE_ID) throw builtInIsReadOnly();
  if (!(await deleteProfile({ userId, profileId }))) throw profileNotFound();
}
