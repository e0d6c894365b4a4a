// What a view shows while its data loads: a status line saying what is loading, or skeleton rows
// shaped like what is coming with the same words for screen readers.
import { classNames } from "./class-names";

type Size = "xs" | "sm";

const SIZES: Record<Size, string> = { xs: "text-xs", sm: "text-sm" };

export function LoadingState({
  label,
  rows,
  hideLabel = false,
  size = "sm",
  className,
}: {
  /** What is loading, as the status says it ("Loading files…"). */
  label: string;
  /** Skeleton rows, one width class each ("w-3/5"): drawn under the label. */
  rows?: readonly string[];
  /** The skeleton says it alone; the label is for screen readers only. */
  hideLabel?: boolean;
  size?: Size;
  className?: string;
}) {
  const text = <span className={hideLabel ? "sr-only" : undefined}>{label}</span>;
  if (!rows) {
    return (
      <p
        role="status"
        className={classNames(SIZES[size], "text-zinc-600 dark:text-zinc-400", className)}
      >
        {text}
      </p>
    );
  }
  return (
    <div
      role="status"
      aria-busy="true"
      className={classNames(
        "space-y-1",
        SIZES[size],
        "text-zinc-600 dark:text-zinc-400",
        className,
      )}
    >
      {text}
      {rows.map((width, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows are decoration that never reorders.
        <div key={index} aria-hidden="true" className="flex h-8 items-center px-2">
          <div
            className={classNames("h-3 animate-pulse rounded bg-zinc-200 dark:bg-zinc-800", width)}
          />
        </div>
      ))}
    </div>
  );
}
