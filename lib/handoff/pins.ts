// Pins as handoffs carry them (docs/handoffs.md#pins): the must_preserve list a reset writes
// from the thread's pins. Pure; how a pin is stored and compared lives in core/pins.ts.
import { pinKeyOf } from "@/core/pins";

export interface PinState {
  /** The stored text (already clean). */
  text: string;
  normalized: string;
  state: "pinned" | "unpinned";
}

/**
 * What a handoff's must_preserve holds: the thread's pinned texts, oldest first, then the items
 * the writer listed that are not pins yet — except those the user unpinned: an unpin wins over a
 * writer that lists the item again. Case and spacing are ignored when matching.
 */
export function carriedPins(listed: readonly string[], pins: readonly PinState[]): string[] {
  const pinned = pins.filter((p) => p.state === "pinned");
  const seen = new Set(pins.map((p) => p.normalized));
  const out = pinned.map((p) => p.text);
  for (const item of listed) {
    const key = pinKeyOf(item);
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}
