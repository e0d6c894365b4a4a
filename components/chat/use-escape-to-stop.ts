"use client";
// Escape stops the reply that is generating, wherever focus is on the page — unless something
// the Escape belongs to is open (a dialog, a menu, the share panel, the sidebar drawer, an edit):
// those close first, and a second Escape stops.
import { useEffect } from "react";

function escapeBelongsElsewhere(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.isComposing) return true;
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest("dialog, [role='dialog'], [role='menu'], [role='listbox']")) return true;
  // An open popover (the share panel, the sidebar drawer) is what this Escape closes.
  return document.querySelector("[data-closes-on-escape]") !== null;
}

export function useEscapeToStop(active: boolean, stop: () => void): void {
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || escapeBelongsElsewhere(event)) return;
      event.preventDefault();
      stop();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [active, stop]);
}
