// The marked-off block that carries a handoff into the next session's prompt
// (docs/context-engine.md), and its inverse for readers of a prompt (the offline model reads
// facts back from it).

const CARRIED_OVER_TAG = "carried-over-context";
/** The opening tag is this prefix followed by its attributes and `>`. */
export const CARRIED_OVER_OPEN_TAG = `<${CARRIED_OVER_TAG}`;
export const CARRIED_OVER_CLOSE_TAG = `</${CARRIED_OVER_TAG}>`;
const CARRIED_OVER_PREAMBLE =
  "This is context carried over from the previous session's handoff. It is all that survives from earlier sessions.";

export interface CarriedOverMeta {
  revision: number;
  sessionNumber: number;
}

/*
 * Handoff text may quote the tag itself (a fact about this very feature, or a user pasting a
 * prompt). Inside the block every `<`, then any backslashes, then `carried-over-context` or
 * `/carried-over-context` gains one backslash after the `<`, so the block cannot be closed or
 * nested from inside; extraction removes exactly one, which makes the escaping lossless.
 */
const TAG_LIKE = new RegExp(`<(\\\\*)(/?${CARRIED_OVER_TAG})`, "gi");
const ESCAPED_TAG_LIKE = new RegExp(`<\\\\(\\\\*)(/?${CARRIED_OVER_TAG})`, "gi");

export function renderCarriedOverBlock(markdown: string, meta: CarriedOverMeta): string {
  const body = markdown.replace(TAG_LIKE, "<\\$1$2");
  const newline = body === "" || body.endsWith("\n") ? "" : "\n";
  return [
    `${CARRIED_OVER_OPEN_TAG} source="handoff" session="${meta.sessionNumber}" revision="${meta.revision}">`,
    CARRIED_OVER_PREAMBLE,
    `${body}${newline}${CARRIED_OVER_CLOSE_TAG}`,
  ].join("\n");
}

const BLOCK = new RegExp(
  `${CARRIED_OVER_OPEN_TAG}(?:\\s[^>]*)?>\\r?\\n([\\s\\S]*?)${CARRIED_OVER_CLOSE_TAG}`,
);

/**
 * The markdown inside the first carried-over block of `text` (the brief comes before any user
 * message, so a block a user pastes later cannot displace it), or null when there is none.
 */
export function extractCarriedOverBlock(text: string): string | null {
  const match = BLOCK.exec(text);
  if (!match) return null;
  let inner = match[1] ?? "";
  const preamble = `${CARRIED_OVER_PREAMBLE}\n`;
  if (inner.startsWith(preamble)) inner = inner.slice(preamble.length);
  else if (inner.startsWith(`${CARRIED_OVER_PREAMBLE}\r\n`))
    inner = inner.slice(preamble.length + 1);
  return inner.replace(ESCAPED_TAG_LIKE, "<$1$2");
}
