// What a list or view shows while it has nothing in it: a line of text, or a title with a
// description for a whole page that starts empty.
import type { ComponentProps, ReactNode } from "react";
import { classNames } from "./class-names";

/** `inline`: a line in the flow; `centered`: a list's empty middle; `page`: a view's. */
type Layout = "inline" | "centered" | "page";
type Size = "xs" | "sm";

const LAYOUTS: Record<Layout, string> = {
  inline: "",
  centered: "px-3 py-6 text-center",
  page: "flex h-full flex-col items-center justify-center gap-2 p-8 text-center",
};

const SIZES: Record<Size, string> = { xs: "text-xs", sm: "text-sm" };

export function EmptyState({
  title,
  titleAs: Title = "h2",
  layout = "inline",
  size = "sm",
  className,
  children,
  ...props
}: ComponentProps<"div"> & {
  /** A heading above the text, for a view that is empty as a whole. */
  title?: ReactNode;
  titleAs?: "h1" | "h2" | "h3";
  layout?: Layout;
  size?: Size;
}) {
  return (
    <div
      className={classNames(
        LAYOUTS[layout],
        SIZES[size],
        "text-zinc-600 dark:text-zinc-400",
        className,
      )}
      {...props}
    >
      {title ? (
        <>
          <Title
            className={
              layout === "page"
                ? "text-xl font-semibold text-zinc-800 dark:text-zinc-200"
                : "font-medium text-zinc-800 dark:text-zinc-200"
            }
          >
            {title}
          </Title>
          <p className="max-w-md">{children}</p>
        </>
      ) : (
        children
      )}
    </div>
  );
}
