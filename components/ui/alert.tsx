// The app's alert: a message that something failed (or was refused), announced as it appears,
// with an optional retry. The only place `role="alert"` is written.
import type { ComponentProps } from "react";
import { Button } from "./button";
import { classNames } from "./class-names";

type Variant = "error" | "warning";
/** `text`: coloured text in the flow; `panel`: a bordered box for a message that stands alone. */
type Appearance = "text" | "panel";
/** `inherit` keeps the surrounding text size (an alert inside a line of small links). */
type Size = "xs" | "sm" | "inherit";

const TEXT: Record<Variant, string> = {
  error: "text-red-700 dark:text-red-300",
  warning: "text-amber-900 dark:text-amber-200",
};

const PANEL: Record<Variant, string> = {
  error:
    "rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200",
  warning:
    "rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200",
};

const SIZES: Record<Size, string> = { xs: "text-xs", sm: "text-sm", inherit: "" };

export function alertClassName({
  variant = "error",
  appearance = "text",
  size = "sm",
  className,
}: {
  variant?: Variant;
  appearance?: Appearance;
  size?: Size;
  className?: string;
}): string {
  return classNames(
    appearance === "panel" ? PANEL[variant] : TEXT[variant],
    SIZES[size],
    "break-words",
    className,
  );
}

export function Alert({
  variant,
  appearance,
  size,
  onRetry,
  retryLabel = "Try again",
  className,
  children,
  ...props
}: Omit<ComponentProps<"div">, "role"> & {
  variant?: Variant;
  appearance?: Appearance;
  size?: Size;
  /** Offers a button that asks again; the alert's message stays beside it. */
  onRetry?: () => void;
  retryLabel?: string;
}) {
  const classes = alertClassName({ variant, appearance, size, className });
  if (!onRetry) {
    return (
      <div role="alert" className={classes} {...props}>
        {children}
      </div>
    );
  }
  return (
    <div
      role="alert"
      className={classNames(classes, "flex flex-wrap items-center gap-x-3 gap-y-1.5")}
      {...props}
    >
      <div className="min-w-0">{children}</div>
      <Button size="sm" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}
