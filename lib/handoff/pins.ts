// Pins as handoffs carry them (docs/handoffs.md#pins): the text a pin is stored as, the key pins
// are matched by, and the must_preserve list a reset writes from the thread's pins. Pure.
import { redactText } from "@/lib/redact/engine";

/** The most characters a pin may hold (a pin is one instruction or fact, not a document). */
export const PIN_MAX_CHARS = 2_000;

/** Trimmed with its spacing collapsed: what the length limit is measured on. */
export const flattenPin = (text: string) => text.trim().replace(/\s+/g, " ");

/** The key a pin is matched by: trimmed, spacing collapsed, lowercased. */
export const normalizePin = (text: string) => flattenPin(text).toLowerCase();

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
