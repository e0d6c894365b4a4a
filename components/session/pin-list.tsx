"use client";
// A card's list of items with their pin state now. `carried`: a revision's must_preserve, shown as
// it was written, each marked pinned now (with Unpin) or unpinned since (with Pin). `plain`:
// items such as confirmed facts, with Pin (Unpin once pinned). `unpin`: only the current pins
// get a button (a failed reset's list, where pinning more could never help). No buttons without
// the thread's pins (the shared view).
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

export type PinListMode = "carried" | "plain" | "unpin";

function PinItem({ text, mode }: { text: string; mode: PinListMode }) {
  const pins = useThreadPins();
  const current = pins?.pinOf(text);
  if (!pins || (mode === "unpin" && !current)) return <span className="break-words">{text}</span>;
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
          {mode === "carried" ? <PinState>Unpinned</PinState> : null}
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
  mode,
  empty,
  className = "space-y-1 text-sm",
}: {
  items: readonly string[];
  mode: PinListMode;
  empty?: ReactNode;
  className?: string;
}) {
  if (items.length === 0) return <>{empty ?? null}</>;
  return (
    <ul className={className} data-testid={mode === "carried" ? "carried-pins" : undefined}>
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: plain strings that may repeat.
        <li key={i}>
          <PinItem text={item} mode={mode} />
        </li>
      ))}
    </ul>
  );
}
