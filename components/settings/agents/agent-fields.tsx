"use client";
// The agent form's building blocks: a labelled field with its help and its errors (tied to the
// input with aria-describedby), and the class names inputs share.
import type { ReactNode, Ref } from "react";

export const INPUT_CLASS =
  "mt-1 w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-70 aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900 dark:aria-[invalid=true]:border-red-400";

/** The ids a field's input points at: its help text and its error list. */
export function describedBy(id: string, help: boolean, errors: readonly string[] | undefined) {
  const ids = [help ? `${id}-help` : "", errors?.length ? `${id}-error` : ""].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

export function FieldErrors({ id, errors }: { id: string; errors?: readonly string[] }) {
  if (!errors || errors.length === 0) return null;
  return (
    <ul id={`${id}-error`} className="mt-1 space-y-0.5 text-xs text-red-700 dark:text-red-300">
      {errors.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}

export function Field({
  id,
  label,
  help,
  errors,
  className = "",
  children,
}: {
  /** The input's id; the label points at it. */
  id: string;
  label: string;
  help?: string;
  errors?: readonly string[];
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {help ? (
        <p id={`${id}-help`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {help}
        </p>
      ) : null}
      <FieldErrors id={id} errors={errors} />
    </div>
  );
}

/** A refused form's errors that belong to no field, above the fields; focused when none shows one. */
export function FormErrorSummary({
  messages,
  ref,
}: {
  messages: readonly string[];
  ref: Ref<HTMLDivElement>;
}) {
  if (messages.length === 0) return null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </div>
  );
}
