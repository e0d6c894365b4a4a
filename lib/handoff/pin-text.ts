// How pin texts compare, for the browser: the rule lives in core/pin-text.ts.
export { flattenPin, normalizePin, PIN_MAX_CHARS } from "@/core/pin-text";
