"use client";
// A card's list of items with their pin state now. `carried`: a revision's must_preserve, shown as
// it was written, each marked pinned now (with Unpin) or unpinned since (with Pin); otherwise
// plain items (confirmed facts) with Pin, or Unpin once pinned. No buttons without the thread's
// pins (the shared view).
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { useThreadPins } from "./pin-context";

function PinState({ children }: { children: ReactNode }) {
  return (
    <span className="shrink-0 rounded bg-zinc-200 px-1.5 text-xs leading-5 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
      {children}
    </span>
  );
}

function PinItem({ text, carried }: { text: string; carried: boolean }) {
  const pins = useThreadPins();
  if (!pins) return <span className="break-words">{text}</span>;
  const current = pins.pinOf(text);
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <span className="min-w-0 flex-1 basis-40 break-words">{text}</span>
      {current ? (
        <>
          <PinState>Pinned</PinState>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Unpin ${text}`}
            onClick={() => void pins.unpin(current)}
          >
            Unpin
          </Button>
        </>
      ) : (
        <>
          {carried ? <PinState>Unpinned</PinState> : null}
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Pin ${text}`}
            onClick={() => void pins.pin(text)}
          >
            Pin
          </Button>
        </>
      )}
    </span>
  );
}

export function PinList({
  items,
  carried,
  empty,
  className = "space-y-1 text-sm",
}: {
  items: readonly string[];
  carried: boolean;
  empty?: ReactNode;
  className?: string;
}) {
  if (items.length === 0) return <>{empty ?? null}</>;
  return (
    <ul className={className} data-testid={carried ? "carried-pins" : undefined}>
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: plain strings that may repeat.
        <li key={i}>
          <PinItem text={item} carried={carried} />
        </li>
      ))}
    </ul>
  );
}
