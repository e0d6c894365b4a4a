// The text a pin is stored as (docs/handoffs.md#pins): flattened, secrets masked, capped, and
// the key stored pins and listed items compare by. Pure; the browser-safe half is pin-text.ts.

import { flattenPin, normalizePin, PIN_MAX_CHARS } from "./pin-text";
import { redactText } from "./redact/engine";

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
