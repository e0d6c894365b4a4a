// How pin texts compare (docs/handoffs.md#pins): browser-safe, so the cards match a handoff's
// items to the thread's pins by the same rule the server stores them under.

/** The most characters a pin may hold (a pin is one instruction or fact, not a document). */
export const PIN_MAX_CHARS = 2_000;

/** Trimmed with its spacing collapsed: what the length limit is measured on. */
export const flattenPin = (text: string) => text.trim().replace(/\s+/g, " ");

/** The key a pin is matched by: trimmed, spacing collapsed, lowercased. */
export const normalizePin = (text: string) => flattenPin(text).toLowerCase();
