// The Agents settings form's values (what its inputs hold, as text) and the request body they
// become, and the API's field errors sorted onto the form's fields. Pure; no server imports.
import type { FieldErrors } from "@/core/errors";
import type { CONTEXT_STRATEGIES, ProfileView } from "./profile-view";

export interface ProfileFormValues {
  id: string;
  name: string;
  description: string;
  systemPrompt: string;
  /** "" for the thread's model. */
  model: string;
  contextStrategy: (typeof CONTEXT_STRATEGIES)[number];
  resetThreshold: string;
  compactThreshold: string;
  maxSteps: string;
  briefShare: string;
  reviewResets: "never" | "manual" | "always";
  /** "" turns drafting ahead off. */
  draftThreshold: string;
  tools: string[];
  canHandoff: boolean;
  callable: boolean;
  allowAsHandoffTarget: boolean;
  /** "any": every agent may transfer to this one; "list": only `callers`. */
  callersMode: "any" | "list";
  /** Slugs separated by commas or spaces. */
  callers: string;
  maxHandoffDepth: string;
}

/** The form's fields, each the key its errors are shown under. */
export type ProfileFormField = keyof ProfileFormValues;

/** The values a form opens with: the profile's own, or a new profile's defaults. */
export function formValuesOf(profile: ProfileView): ProfileFormValues {
  const callers = profile.delegation.allowedCallers;
  return {
    id: profile.id,
    name: profile.name,
    description: profile.description,
    systemPrompt: profile.systemPrompt,
    model: profile.model ?? "",
    contextStrategy: profile.contextStrategy,
    resetThreshold: String(profile.resetThreshold),
    compactThreshold: String(profile.compactThreshold),
    maxSteps: String(profile.maxSteps),
    briefShare: String(profile.briefShare),
    reviewResets: profile.reviewResets,
    draftThreshold: profile.draftThreshold === null ? "" : String(profile.draftThreshold),
    tools: [...profile.tools.allow],
    canHandoff: profile.delegation.canHandoff,
    callable: profile.delegation.callable,
    allowAsHandoffTarget: profile.delegation.allowAsHandoffTarget,
    callersMode: callers === "*" ? "any" : "list",
    callers: callers === "*" ? "" : callers.join(", "),
    maxHandoffDepth: String(profile.delegation.maxHandoffDepth),
  };
}

/**
 * A number input's text as the API reads it. Text that is no number is sent as it is, so the
 * API names the field instead of the form guessing.
 */
function numberOf(text: string): number | string {
  const trimmed = text.trim();
  const value = Number(trimmed);
  return trimmed !== "" && Number.isFinite(value) ? value : trimmed;
}

function callerSlugs(text: string): string[] {
  return text.split(/[\s,]+/).filter((slug) => slug !== "");
}

/**
 * The body of POST /api/profiles (`create`, with the slug) or PATCH /api/profiles/{slug} (every
 * field, so what the form shows is what is stored).
 */
export function profileBodyOf(
  values: ProfileFormValues,
  mode: "create" | "edit",
): Record<string, unknown> {
  return {
    ...(mode === "create" ? { id: values.id.trim() } : {}),
    name: values.name,
    description: values.description,
    systemPrompt: values.systemPrompt,
    model: values.model === "" ? null : values.model,
    contextStrategy: values.contextStrategy,
    resetThreshold: numberOf(values.resetThreshold),
    compactThreshold: numberOf(values.compactThreshold),
    maxSteps: numberOf(values.maxSteps),
    briefShare: numberOf(values.briefShare),
    reviewResets: values.reviewResets,
    draftThreshold: values.draftThreshold.trim() === "" ? null : numberOf(values.draftThreshold),
    tools: { allow: values.tools },
    delegation: {
      canHandoff: values.canHandoff,
      callable: values.callable,
      allowAsHandoffTarget: values.allowAsHandoffTarget,
      allowedCallers: values.callersMode === "any" ? "*" : callerSlugs(values.callers),
      maxHandoffDepth: numberOf(values.maxHandoffDepth),
    },
  };
}

const DELEGATION_FIELDS: Record<string, ProfileFormField> = {
  canHandoff: "canHandoff",
  callable: "callable",
  allowAsHandoffTarget: "allowAsHandoffTarget",
  allowedCallers: "callers",
  maxHandoffDepth: "maxHandoffDepth",
};

const FORM_FIELDS = new Set<string>([
  "id",
  "name",
  "description",
  "systemPrompt",
  "model",
  "contextStrategy",
  "resetThreshold",
  "compactThreshold",
  "maxSteps",
  "briefShare",
  "reviewResets",
  "draftThreshold",
]);

/** The form field an API field error belongs to (`tools.allow.2` → tools), or null for none. */
function formFieldOf(apiField: string): ProfileFormField | null {
  const [head, next] = apiField.split(".");
  if (head === "tools") return "tools";
  if (head === "delegation") return (next && DELEGATION_FIELDS[next]) || null;
  return head && FORM_FIELDS.has(head) ? (head as ProfileFormField) : null;
}

/** The API's field errors by form field; those no field shows are kept under `form`. */
export function formErrorsOf(fields: FieldErrors | undefined): {
  byField: Partial<Record<ProfileFormField, string[]>>;
  form: string[];
} {
  const byField: Partial<Record<ProfileFormField, string[]>> = {};
  const form: string[] = [];
  for (const [apiField, messages] of Object.entries(fields ?? {})) {
    const field = formFieldOf(apiField);
    if (field) byField[field] = [...(byField[field] ?? []), ...messages];
    else form.push(...messages.map((m) => (apiField === "(body)" ? m : `${apiField}: ${m}`)));
  }
  return { byField, form };
}
