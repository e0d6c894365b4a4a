// Every repository path the README and docs/ name in backticks exists, so a moved or deleted
// file cannot leave the design of record pointing at nothing.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

const TOP_FOLDERS = readdirSync(ROOT, { withFileTypes: true })
  .filter(
    (entry) => entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules",
  )
  .map((entry) => entry.name);

function markdownFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(relative);
    return entry.name.endsWith(".md") ? [relative] : [];
  });
}

/**
 * The repository paths named in inline code: a top-level folder, then a file with an extension
 * or a folder ending in `/`. A trailing `:line` is dropped; globs (`*`) and placeholders
 * (`<entity>`, `{a,b}`, `…`) name no single file and are left out.
 */
function namedPaths(markdown: string, topFolders: readonly string[]): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, "");
  const startsInRepo = new RegExp(`^(${topFolders.join("|")})/`);
  const paths = [...prose.matchAll(/`([^`\n]+)`/g)]
    .map((match) => (match[1] ?? "").trim().replace(/:\d+(-\d+)?$/, ""))
    .filter((token) => startsInRepo.test(token))
    .filter((token) => !/[*<>{}\s…]|\.\.\./.test(token))
    .filter((token) => token.endsWith("/") || /\.[a-z0-9]+$/i.test(path.posix.basename(token)));
  return [...new Set(paths)];
}

const DOCUMENTS = ["README.md", ...markdownFiles("docs")];

describe("paths named in the docs", () => {
  it("reads inline paths, not globs, placeholders or code blocks", () => {
    const sample = [
      "See `lib/chat/request.ts:12`, `db/queries/` and `app/api/threads/[id]/route.ts`.",
      "Not `lib/**/*.test.ts`, `db/queries/<entity>.ts`, `npm test` or `lib/chat`.",
      "```sh\nls `core/env.ts`\n```",
    ].join("\n");
    expect(namedPaths(sample, ["app", "core", "db", "lib"])).toEqual([
      "lib/chat/request.ts",
      "db/queries/",
      "app/api/threads/[id]/route.ts",
    ]);
  });

  it("every path the README and docs/ name exists", () => {
    const named = DOCUMENTS.flatMap((document) =>
      namedPaths(readFileSync(path.join(ROOT, document), "utf8"), TOP_FOLDERS).map((target) => ({
        document,
        target,
      })),
    );
    expect(named.length).toBeGreaterThan(100);
    const missing = named
      .filter(({ target }) => !existsSync(path.join(ROOT, target)))
      .map(({ document, target }) => `${document}: ${target}`);
    expect(missing).toEqual([]);
  });
});
