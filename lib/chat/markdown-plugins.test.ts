import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Streamdown } from "streamdown";
import { describe, expect, it } from "vitest";
import { mayHoldHtml, REHYPE_PLUGINS_WITHOUT_RAW, rehypePluginsFor } from "./markdown-plugins";

function render(markdown: string, rehypePlugins?: typeof REHYPE_PLUGINS_WITHOUT_RAW): string {
  return renderToStaticMarkup(
    createElement(Streamdown, { mode: "static", rehypePlugins }, markdown),
  );
}

const withoutHtml = [
  "Plain words, **bold**, _emphasis_, `code` and ~~struck~~.",
  "# Heading\n\nA paragraph with a [link](https://example.com) and https://example.org.",
  "- one\n- two\n  - nested\n\n1. first\n2. second\n\n- [x] done\n- [ ] open",
  "| a | b |\n| - | - |\n| 1 < 2 | x & y |",
  "> quoted\n>\n> twice\n\n---\n\nThe end.",
  "Compare a < b and b > c, or 3<4.",
  "```ts\nconst x = 1 < 2;\n```",
  "An entity &lt;span&gt; and an escaped \\< sign.",
];

describe("rehype plugins without rehype-raw", () => {
  it.each(withoutHtml)("render text without HTML as the defaults do: %s", (markdown) => {
    expect(mayHoldHtml(markdown)).toBe(false);
    expect(rehypePluginsFor(markdown)).toBe(REHYPE_PLUGINS_WITHOUT_RAW);
    expect(render(markdown, REHYPE_PLUGINS_WITHOUT_RAW)).toBe(render(markdown));
  });

  it("render footnotes as the defaults do, but for how a boolean attribute is written", () => {
    // parse5 writes the section's `data-footnotes` attribute as "" where React writes "true":
    // the same attribute to CSS and to assistive technology.
    const markdown = "A footnote[^1].\n\n[^1]: The note.";
    const fast = render(markdown, REHYPE_PLUGINS_WITHOUT_RAW);
    expect(fast).toContain('data-footnotes="true"');
    expect(fast.replace('data-footnotes="true"', 'data-footnotes=""')).toBe(render(markdown));
  });

  it.each([
    "Some <b>bold</b> HTML.",
    "<div>\nA block\n</div>",
    "A comment <!-- here -->.",
    "A closing </span> tag.",
    "<?php echo 1; ?>",
    "An autolink <https://example.com>.",
  ])("leave text that may hold HTML to the defaults: %s", (markdown) => {
    expect(mayHoldHtml(markdown)).toBe(true);
    expect(rehypePluginsFor(markdown)).toBeUndefined();
  });

  it("would render HTML differently without rehype-raw, so the check matters", () => {
    const markdown = "Some <b>bold</b> HTML.";
    expect(render(markdown)).toContain("<b>bold</b>");
    expect(render(markdown, REHYPE_PLUGINS_WITHOUT_RAW)).not.toContain("<b>bold</b>");
  });
});
