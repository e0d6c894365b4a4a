"use client";
// One agent's form: create (with its slug), edit, or view the built-in one read-only. The API
// checks every field; its field errors are shown next to the fields and the first is focused.
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  controlClassName,
  Field,
  type FieldControlProps,
  FormErrorSummary,
} from "@/components/ui/field";
import {
  formErrorsOf,
  formValuesOf,
  type ProfileFormField,
  type ProfileFormValues,
  profileBodyOf,
} from "@/lib/agents/profile-form";
import { PROFILE_LIMITS, type ProfileView } from "@/lib/agents/profile-view";
import { ApiError } from "@/lib/api/client";
import { patchAgent, postAgent } from "./agent-api";
import { DelegationFields, ToolFields } from "./agent-delegation";
import { McpToolFields, type ToolServersLoad } from "./agent-mcp-tools";

export type AgentFormMode = "create" | "edit" | "view";

export interface ModelChoice {
  id: string;
  label: string;
}

const STRATEGIES: { id: ProfileFormValues["contextStrategy"]; label: string }[] = [
  { id: "auto", label: "Auto (the model's best)" },
  { id: "reset", label: "Reset: new session with a handoff" },
  { id: "compact", label: "Compact, then reset if still full" },
  { id: "off", label: "Off" },
];

type Errors = ReturnType<typeof formErrorsOf>;
type ShareField = "resetThreshold" | "compactThreshold" | "briefShare" | "draftThreshold";
const NO_ERRORS: Errors = { byField: {}, form: [] };

export function AgentForm({
  mode,
  initial,
  models,
  toolNames,
  toolServers,
  onSaved,
  onCancel,
}: {
  mode: AgentFormMode;
  initial: ProfileView;
  models: readonly ModelChoice[];
  toolNames: readonly string[];
  /** The user's MCP tool servers, whose tools the agent may be allowed. */
  toolServers: ToolServersLoad;
  onSaved: (profile: ProfileView) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(() => formValuesOf(initial));
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [attempt, setAttempt] = useState(0);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const base = useId();
  const idOf = (field: string) => `${base}-${field}`;
  const readOnly = mode === "view";

  // Opening the form moves focus into it: its first field, or Close when it is read-only.
  useEffect(() => {
    formRef.current
      ?.querySelector<HTMLElement>("input:not([readonly]):not(:disabled), button:not(:disabled)")
      ?.focus();
  }, []);

  // After a refused save, focus the first field in error (or the summary when none shows one).
  useEffect(() => {
    if (attempt === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (first ?? summaryRef.current)?.focus();
  }, [attempt]);

  const set = <K extends ProfileFormField>(key: K, value: ProfileFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => (e.byField[key] ? { ...e, byField: { ...e.byField, [key]: undefined } } : e));
  };

  /** A share of the context window, in (0, 1]. */
  const shareInput = (field: ShareField) => (control: FieldControlProps) => (
    <input
      {...control}
      type="number"
      inputMode="decimal"
      min={0.01}
      max={1}
      step="any"
      value={values[field]}
      onChange={(e) => set(field, e.target.value)}
      className={controlClassName()}
    />
  );

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (readOnly) return;
    setSaving(true);
    try {
      const body = profileBodyOf(values, mode);
      onSaved(mode === "create" ? await postAgent(body) : await patchAgent(initial.id, body));
    } catch (error) {
      const next = error instanceof ApiError ? formErrorsOf(error.fields) : { ...NO_ERRORS };
      const shown = Object.values(next.byField).some((list) => list && list.length > 0);
      if (!shown && next.form.length === 0) {
        next.form = [
          error instanceof Error ? error.message : "Couldn't save the agent. Try again.",
        ];
      }
      setErrors(next);
      setAttempt((n) => n + 1);
    } finally {
      setSaving(false);
    }
  }

  const modelChoices =
    values.model === "" || models.some((m) => m.id === values.model)
      ? models
      : [...models, { id: values.model, label: `${values.model} (not configured)` }];
  const title =
    mode === "create" ? "New agent" : mode === "edit" ? `Edit ${initial.name}` : initial.name;

  return (
    <form
      ref={formRef}
      data-testid="agent-form"
      aria-label={title}
      noValidate
      onSubmit={save}
      className="space-y-5 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <h2 className="text-lg font-semibold">{title}</h2>
      {readOnly ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          The built-in agent cannot be changed. Create your own agent to use other settings.
        </p>
      ) : null}
      <FormErrorSummary messages={errors.form} ref={summaryRef} />
      <fieldset disabled={readOnly || saving} className="space-y-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={idOf("name")} label="Name" errors={errors.byField.name}>
            {(control) => (
              <input
                {...control}
                value={values.name}
                onChange={(e) => set("name", e.target.value)}
                maxLength={PROFILE_LIMITS.nameMax}
                className={controlClassName()}
              />
            )}
          </Field>
          <Field
            id={idOf("id")}
            label="Slug"
            description={
              mode === "create"
                ? "Its public name for transfers and the API: lowercase letters, digits, hyphens."
                : "An agent's slug cannot change."
            }
            errors={errors.byField.id}
          >
            {(control) => (
              <input
                {...control}
                value={values.id}
                onChange={(e) => set("id", e.target.value)}
                readOnly={mode !== "create"}
                maxLength={40}
                autoCapitalize="none"
                spellCheck={false}
                placeholder="writer"
                className={controlClassName("font-mono")}
              />
            )}
          </Field>
        </div>
        <Field id={idOf("description")} label="Description" errors={errors.byField.description}>
          {(control) => (
            <textarea
              {...control}
              value={values.description}
              onChange={(e) => set("description", e.target.value)}
              maxLength={PROFILE_LIMITS.descriptionMax}
              rows={2}
              className={controlClassName()}
            />
          )}
        </Field>
        <Field id={idOf("systemPrompt")} label="System prompt" errors={errors.byField.systemPrompt}>
          {(control) => (
            <textarea
              {...control}
              value={values.systemPrompt}
              onChange={(e) => set("systemPrompt", e.target.value)}
              maxLength={PROFILE_LIMITS.systemPromptMax}
              rows={8}
              className={controlClassName("font-mono")}
            />
          )}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={idOf("model")} label="Model" errors={errors.byField.model}>
            {(control) => (
              <select
                {...control}
                value={values.model}
                onChange={(e) => set("model", e.target.value)}
                className={controlClassName()}
              >
                <option value="">The thread's model</option>
                {modelChoices.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            id={idOf("contextStrategy")}
            label="Context strategy"
            errors={errors.byField.contextStrategy}
          >
            {(control) => (
              <select
                {...control}
                value={values.contextStrategy}
                onChange={(e) =>
                  set("contextStrategy", e.target.value as ProfileFormValues["contextStrategy"])
                }
                className={controlClassName()}
              >
                {STRATEGIES.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {(
            [
              [
                "resetThreshold",
                "Reset threshold",
                "Share of the window (0–1] that starts a reset.",
              ],
              ["compactThreshold", "Compact threshold", "At most the reset threshold."],
              [
                "briefShare",
                "Brief share",
                "Largest share of the window (0–1] the brief carried into a new session may take.",
              ],
            ] as const
          ).map(([field, label, help]) => (
            <Field
              key={field}
              id={idOf(field)}
              label={label}
              description={help}
              errors={errors.byField[field]}
            >
              {shareInput(field)}
            </Field>
          ))}
          <Field
            id={idOf("maxSteps")}
            label="Step limit"
            description={`Model calls one run may take (${PROFILE_LIMITS.maxStepsMin}–${PROFILE_LIMITS.maxStepsMax}).`}
            errors={errors.byField.maxSteps}
          >
            {(control) => (
              <input
                {...control}
                type="number"
                inputMode="numeric"
                min={PROFILE_LIMITS.maxStepsMin}
                max={PROFILE_LIMITS.maxStepsMax}
                step={1}
                value={values.maxSteps}
                onChange={(e) => set("maxSteps", e.target.value)}
                className={controlClassName()}
              />
            )}
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id={idOf("reviewResets")}
            label="Review handoffs"
            description="Whether you see and edit a reset's handoff before it replaces the context."
            errors={errors.byField.reviewResets}
          >
            {(control) => (
              <select
                {...control}
                value={values.reviewResets}
                onChange={(e) =>
                  set("reviewResets", e.target.value as ProfileFormValues["reviewResets"])
                }
                className={controlClassName()}
              >
                <option value="manual">For resets I start</option>
                <option value="always">Always, threshold resets too</option>
                <option value="never">Never</option>
              </select>
            )}
          </Field>
          <Field
            id={idOf("draftThreshold")}
            label="Draft ahead at"
            description="Share of the window (0–1] past which the next handoff is drafted in the background. Empty: never."
            errors={errors.byField.draftThreshold}
          >
            {shareInput("draftThreshold")}
          </Field>
        </div>
        <ToolFields
          id={idOf("tools")}
          toolNames={toolNames}
          values={values}
          errors={errors.byField}
          set={set}
        />
        <McpToolFields
          load={toolServers}
          allow={values.tools}
          onChange={(allow) => set("tools", allow)}
          invalid={Boolean(errors.byField.tools?.length)}
        />
        <DelegationFields
          id={idOf("delegation")}
          values={values}
          errors={errors.byField}
          set={set}
        />
      </fieldset>
      <div className="flex flex-wrap gap-2">
        {readOnly ? null : (
          <Button type="submit" variant="primary" disabled={saving}>
            {saving ? "Saving…" : mode === "create" ? "Create agent" : "Save"}
          </Button>
        )}
        <Button variant="ghost" onClick={onCancel} disabled={saving}>
          {readOnly ? "Close" : "Cancel"}
        </Button>
      </div>
    </form>
  );
}
