"use client";
// The draft editor's fields: a text area for a free-text field, and a list with a remove button
// per item, an optional per-item action (Pin, Unpin) and an "Add" input. Each shows the server's
// errors for it beside it.
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { controlClassName, Field, FieldError } from "@/components/ui/field";
import type { DraftFieldErrors } from "@/lib/chat/draft-edits";

/** A field's label looks like a list's heading: the editor reads as one column of sections. */
const LABEL =
  "block text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400";

export function DraftTextArea({
  label,
  value,
  onChange,
  errors,
  disabled,
  rows = 2,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  errors?: DraftFieldErrors;
  disabled: boolean;
  rows?: number;
}) {
  return (
    <Field label={label} labelClassName={LABEL} errors={errors?.messages} announceErrors>
      {(control) => (
        <textarea
          {...control}
          className={controlClassName("resize-y")}
          rows={rows}
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

export interface ItemAction {
  /** The button's text ("Pin", "Unpin"); its accessible name adds the item. */
  label: string;
  run: (index: number) => void;
}

export function DraftItemList({
  label,
  items,
  prefixes,
  onRemove,
  onAdd,
  action,
  errors,
  disabled,
  hint,
}: {
  label: string;
  items: readonly string[];
  /** Shown before each item (a task's id). */
  prefixes?: readonly string[];
  onRemove: (index: number) => void;
  onAdd: (text: string) => void;
  action?: ItemAction;
  errors?: DraftFieldErrors;
  disabled: boolean;
  hint?: string;
}) {
  const id = useId();
  const [adding, setAdding] = useState("");
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (adding.trim() === "") return;
    onAdd(adding);
    setAdding("");
  };
  return (
    <section aria-labelledby={`${id}-label`} data-field={label}>
      <h3 id={`${id}-label`} className={LABEL}>
        {label}
      </h3>
      {hint ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{hint}</p> : null}
      {items.length === 0 ? (
        <p className="mt-1 text-sm italic text-zinc-500 dark:text-zinc-400">None</p>
      ) : (
        <ul className="mt-1 space-y-1">
          {items.map((item, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: plain strings that may repeat; edits go by position.
            <li key={i} className="rounded-md bg-zinc-50 px-2 py-1 dark:bg-zinc-900">
              <div className="flex flex-wrap items-start gap-x-2 gap-y-1">
                {prefixes?.[i] ? (
                  <code className="shrink-0 rounded bg-zinc-200 px-1 font-mono text-xs leading-5 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200">
                    {prefixes[i]}
                  </code>
                ) : null}
                <span className="min-w-0 flex-1 break-words text-sm text-zinc-800 dark:text-zinc-200">
                  {item}
                </span>
                <span className="flex shrink-0 gap-1">
                  {action ? (
                    <Button
                      size="sm"
                      disabled={disabled}
                      aria-label={`${action.label} “${item}”`}
                      onClick={() => action.run(i)}
                    >
                      {action.label}
                    </Button>
                  ) : null}
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={disabled}
                    aria-label={`Remove “${item}” from ${label}`}
                    onClick={() => onRemove(i)}
                  >
                    Remove
                  </Button>
                </span>
              </div>
              <FieldError
                id={`${id}-item-${i}`}
                errors={errors?.items[i]}
                announce
                className="mt-1"
              />
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={add} className="mt-1 flex gap-2">
        <input
          className={controlClassName("min-w-0")}
          value={adding}
          disabled={disabled}
          aria-label={`New item for ${label}`}
          placeholder="Add an item"
          onChange={(event) => setAdding(event.target.value)}
        />
        <Button
          type="submit"
          size="sm"
          disabled={disabled || adding.trim() === ""}
          aria-label={`Add to ${label}`}
        >
          Add
        </Button>
      </form>
      <FieldError id={id} errors={errors?.messages} announce className="mt-1" />
    </section>
  );
}
