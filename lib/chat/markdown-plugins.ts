// The rehype plugins a message's markdown is rendered with. Streamdown's defaults run every
// tree through rehype-raw, which serializes it and parses it again with parse5 so that raw HTML
// in the text renders (then sanitized). A text with no HTML in it gives rehype-raw nothing to
// do, yet it was about half of the markdown work of a row coming into view while scrolling
// (docs/message-list.md, "Rendering"). Such text gets the same plugins less that one: the same
// output, since without raw HTML there is nothing for it to turn into elements.
import { defaultRehypePlugins } from "streamdown";

const { raw: _raw, ...withoutRaw } = defaultRehypePlugins;

/** Streamdown's default rehype plugins, in their order, less rehype-raw. */
export const REHYPE_PLUGINS_WITHOUT_RAW = Object.values(withoutRaw);

/**
 * Whether markdown may hold raw HTML: every HTML block or inline tag, comment, declaration,
 * processing instruction and CDATA section starts with `<` and a letter, `/`, `!` or `?`.
 * Anything else with a `<` in it (`a < b`) is text. Autolinks (`<https://…>`) match too, which
 * only costs them the default plugins.
 */
export function mayHoldHtml(markdown: string): boolean {
  return /<[A-Za-z/!?]/.test(markdown);
}

/** The rehype plugins for this text: undefined (Streamdown's defaults) where it may hold HTML. */
export function rehypePluginsFor(markdown: string) {
  return mayHoldHtml(markdown) ? undefined : REHYPE_PLUGINS_WITHOUT_RAW;
}
