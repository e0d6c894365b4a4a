"use client";
// The agent form's tools and delegation: which tools the agent may call, whether it may transfer
// work to another agent, and who may transfer work to it (docs/agents.md).
import { controlClassName, Field, FieldError, fieldControlProps } from "@/components/ui/field";
import type { ProfileFormField, ProfileFormValues } from "@/lib/agents/profile-form";
import { setBuiltinTool } from "@/lib/agents/profile-mcp-allow";

type Errors = Partial<Record<ProfileFormField, string[]>>;
type Setter = <K extends ProfileFormField>(key: K, value: ProfileFormValues[K]) => void;

const TOOL_HELP: Record<string, string> = {
  list_files: "list the thread's files",
  read_file: "read a file",
  write_file: "create or replace a file",
  edit_file: "change part of a file",
  delete_file: "delete a file",
  update_plan: "keep the plan checklist",
  handoff_to_agent: "transfer the run to another agent",
  list_agents: "see which agents it can transfer to",
};

export function ToolFields({
  id,
  toolNames,
  values,
  errors,
  set,
}: {
  id: string;
  toolNames: readonly string[];
  values: ProfileFormValues;
  errors: Errors;
  set: Setter;
}) {
  const invalid = Boolean(errors.tools?.length);
  return (
    <fieldset
      aria-describedby={fieldControlProps(id, { errors: errors.tools })["aria-describedby"]}
    >
      <legend className="text-sm font-medium">Tools</legend>
      <div className="mt-1 grid gap-x-5 gap-y-1 sm:grid-cols-2">
        {toolNames.map((tool) => (
          <label key={tool} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-1"
              aria-invalid={invalid || undefined}
              checked={values.tools.includes(tool)}
              onChange={(e) =>
                set("tools", setBuiltinTool(values.tools, toolNames, tool, e.target.checked))
              }
            />
            <span>
              <code className="text-xs">{tool}</code>
              {TOOL_HELP[tool] ? (
                <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                  {TOOL_HELP[tool]}
                </span>
              ) : null}
            </span>
          </label>
        ))}
      </div>
      <FieldError id={id} errors={errors.tools} className="mt-1" />
    </fieldset>
  );
}

function Check({
  label,
  help,
  checked,
  onChange,
}: {
  label: string;
  help: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex items-start gap-2 text-sm">
      <input
        type="checkbox"
        className="mt-1"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>
        {label}
        <span className="block text-xs text-zinc-600 dark:text-zinc-400">{help}</span>
      </span>
    </label>
  );
}

export function DelegationFields({
  id,
  values,
  errors,
  set,
}: {
  id: string;
  values: ProfileFormValues;
  errors: Errors;
  set: Setter;
}) {
  const callersId = `${id}-callers`;
  const depthId = `${id}-depth`;
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium">Delegation</legend>
      <Check
        label="May transfer to other agents"
        help="Also needs the handoff_to_agent tool above."
        checked={values.canHandoff}
        onChange={(v) => set("canHandoff", v)}
      />
      <Check
        label="Other agents can reach this one"
        help="Off: no other agent sees or calls it."
        checked={values.callable}
        onChange={(v) => set("callable", v)}
      />
      <Check
        label="Accepts transfers"
        help="Other agents may transfer the next stage of a run to it."
        checked={values.allowAsHandoffTarget}
        onChange={(v) => set("allowAsHandoffTarget", v)}
      />
      <fieldset>
        <legend className="text-sm">Who may transfer to it</legend>
        <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1 text-sm">
          <label className="flex items-center gap-1.5">
            <input
              type="radio"
              name={`${id}-callers-mode`}
              checked={values.callersMode === "any"}
              onChange={() => set("callersMode", "any")}
            />
            Any agent
          </label>
          <label className="flex items-center gap-1.5">
            <input
              type="radio"
              name={`${id}-callers-mode`}
              checked={values.callersMode === "list"}
              onChange={() => set("callersMode", "list")}
            />
            Only these agents
          </label>
        </div>
      </fieldset>
      {values.callersMode === "list" ? (
        <Field
          id={callersId}
          label="Allowed callers"
          description="Agent slugs, separated by commas; default is the built-in agent."
          errors={errors.callers}
        >
          {(control) => (
            <input
              {...control}
              value={values.callers}
              onChange={(e) => set("callers", e.target.value)}
              placeholder="default, planner"
              className={controlClassName()}
            />
          )}
        </Field>
      ) : (
        <FieldError id={callersId} errors={errors.callers} />
      )}
      <Field
        id={depthId}
        label="Max transfer depth"
        description="Transfers a run may make before this agent may transfer no more (0–10)."
        errors={errors.maxHandoffDepth}
        className="max-w-xs"
      >
        {(control) => (
          <input
            {...control}
            type="number"
            inputMode="numeric"
            min={0}
            max={10}
            step={1}
            value={values.maxHandoffDepth}
            onChange={(e) => set("maxHandoffDepth", e.target.value)}
            className={controlClassName()}
          />
        )}
      </Field>
    </fieldset>
  );
}
