// Pins as handoffs carry them (docs/handoffs.md#pins): the text a pin is stored as (masked), its
// key, and the must_preserve list a reset writes from the thread's pins. Pure.
import { redactText } from "@/core/redact/engine";
import { flattenPin, normalizePin, PIN_MAX_CHARS } from "./pin-text";

export { flattenPin, normalizePin, PIN_MAX_CHARS };

/**
 * The text a pin is stored as: flattened, secrets masked (a pin reaches every later handoff), at
 * most PIN_MAX_CHARS, never ending inside a surrogate pair.
 */
export function cleanPin(text: string): string {
  const masked = redactText(flattenPin(text)).text;
  if (masked.length <= PIN_MAX_CHARS) return masked;
  const last = masked.charCodeAt(PIN_MAX_CHARS - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? PIN_MAX_CHARS - 1 : PIN_MAX_CHARS;
  return masked.slice(0, end).trimEnd();
}

/** The key of `text` as it would be stored: what a listed item and a stored pin compare by. */
export const pinKeyOf = (text: string) => normalizePin(cleanPin(text));

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
