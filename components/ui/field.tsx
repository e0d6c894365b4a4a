"use client";
// A labelled form field: the label, the control (the caller renders it with the props that tie it
// to the rest: aria-describedby to the description and errors, aria-invalid while errors show),
// the description and the errors. The pieces serve a control laid out apart from its label.
import { type ReactNode, type Ref, useId } from "react";
import { Alert, alertClassName } from "./alert";
import { classNames } from "./class-names";

/** A field's errors: a list (the API's field errors), one message, or none. */
export type FieldMessages = readonly string[] | string | null | undefined;

/** What the control of a field must carry. */
export interface FieldControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

/** The look every text input, text area and select of a form shares. */
export function controlClassName(className?: string): string {
  return classNames(
    "w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm text-zinc-900",
    "focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-70",
    "aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:aria-[invalid=true]:border-red-400",
    className,
  );
}

function messagesOf(errors: FieldMessages): readonly string[] {
  if (!errors) return [];
  return typeof errors === "string" ? [errors] : errors;
}

const descriptionId = (id: string) => `${id}-description`;
const errorId = (id: string) => `${id}-error`;

/** The props that tie the control with this id to its description and errors. */
export function fieldControlProps(
  id: string,
  { description = false, errors }: { description?: boolean; errors?: FieldMessages },
): FieldControlProps {
  const invalid = messagesOf(errors).length > 0;
  const ids = [description ? descriptionId(id) : "", invalid ? errorId(id) : ""].filter(Boolean);
  return {
    id,
    "aria-invalid": invalid || undefined,
    "aria-describedby": ids.length > 0 ? ids.join(" ") : undefined,
  };
}

const LABEL_SIZES = { sm: "block text-sm font-medium", xs: "block text-xs font-medium" };

export function FieldLabel({
  htmlFor,
  size = "sm",
  className,
  children,
}: {
  htmlFor: string;
  size?: keyof typeof LABEL_SIZES;
  /** Replaces the size's look (a label styled as its section's headings). */
  className?: string;
  children: ReactNode;
}) {
  return (
    <label htmlFor={htmlFor} className={className ?? LABEL_SIZES[size]}>
      {children}
    </label>
  );
}

function FieldDescription({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={descriptionId(id)} className="text-xs text-zinc-600 dark:text-zinc-400">
      {children}
    </p>
  );
}

/**
 * The errors of the control with this id. `announce` makes them an alert, for errors that appear
 * without the user moving to the field (a refused save while focus stays on its button).
 */
export function FieldError({
  id,
  errors,
  announce = false,
  className,
}: {
  id: string;
  errors?: FieldMessages;
  announce?: boolean;
  className?: string;
}) {
  const messages = messagesOf(errors);
  if (messages.length === 0) return null;
  const body =
    messages.length === 1 ? (
      messages[0]
    ) : (
      <ul className="space-y-0.5">
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    );
  if (announce) {
    return (
      <Alert id={errorId(id)} size="xs" className={className}>
        {body}
      </Alert>
    );
  }
  return (
    <div id={errorId(id)} className={alertClassName({ size: "xs", className })}>
      {body}
    </div>
  );
}

export function Field({
  id: givenId,
  label,
  labelSize,
  labelClassName,
  description,
  errors,
  announceErrors = false,
  className,
  children,
}: {
  /** The control's id; one is made when the caller needs none of its own. */
  id?: string;
  label: ReactNode;
  labelSize?: "sm" | "xs";
  labelClassName?: string;
  description?: ReactNode;
  errors?: FieldMessages;
  announceErrors?: boolean;
  className?: string;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const madeId = useId();
  const id = givenId ?? madeId;
  const described = description !== undefined && description !== null && description !== "";
  return (
    <div className={classNames("space-y-1", className)}>
      <FieldLabel htmlFor={id} size={labelSize} className={labelClassName}>
        {label}
      </FieldLabel>
      {children(fieldControlProps(id, { description: described, errors }))}
      {described ? <FieldDescription id={id}>{description}</FieldDescription> : null}
      <FieldError id={id} errors={errors} announce={announceErrors} />
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
    <Alert ref={ref} tabIndex={-1} appearance="panel" className="space-y-1">
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
    </Alert>
  );
}
