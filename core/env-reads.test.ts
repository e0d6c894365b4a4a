// Every environment variable is read through core/env.ts: this scans the product's source text
// (app/, lib/, db/, components/, instrumentation.ts, proxy.ts) for any other read.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const FOLDERS = ["app", "core", "lib", "db", "components"];
const FILES = ["instrumentation.ts", "proxy.ts"];
const SOURCE = /\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/;
/** Tests set variables (vi.stubEnv) to exercise the module; they are not the product. */
const TEST = /\.test\.(ts|tsx)$/;
const ENV_MODULE = "core/env.ts";

/** Next writes NEXT_RUNTIME into each bundle at build time; it is a constant, not a setting. */
const ALLOWED = /\bprocess\.env\.NEXT_RUNTIME\b/g;
const READS = [
  /\bprocess\s*(\?\.|\.|\[)\s*["'`]?env\b/, // process.env, process?.env, process["env"]
  /\{[^}]*\benv\b[^}]*\}\s*=\s*(globalThis\.)?process\b/, // const { env } = process
  /import\s*\{[^}]*\benv\b[^}]*\}\s*from\s*["'](node:)?process["']/, // import { env } from "process"
  /\bimport\.meta\.env\b/,
];

function readsEnv(text: string): boolean {
  const rest = text.replace(ALLOWED, "");
  return READS.some((pattern) => pattern.test(rest));
}

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(ROOT, dir))) {
      if (name === "node_modules" || name.startsWith(".")) continue;
      const relative = path.posix.join(dir, name);
      if (statSync(path.join(ROOT, relative)).isDirectory()) walk(relative);
      else if (SOURCE.test(name) && !TEST.test(name)) out.push(relative);
    }
  };
  for (const folder of FOLDERS) walk(folder);
  for (const file of FILES) if (existsSync(path.join(ROOT, file))) out.push(file);
  return out;
}

describe("environment reads", () => {
  it("the detector sees every way of reading the environment, and allows NEXT_RUNTIME", () => {
    for (const read of [
      "const url = process.env.DATABASE_URL;",
      'const url = process.env["DATABASE_URL"];',
      "const url = process?.env?.DATABASE_URL;",
      'const k = process["env"].OPENAI_API_KEY;',
      "const { env } = process;",
      "const { env: e, argv } = globalThis.process;",
      'import { env } from "node:process";',
      "const mode = import.meta.env.MODE;",
      'if (process.env.NEXT_RUNTIME === "nodejs" && process.env.PORT) {}',
    ]) {
      expect(readsEnv(read), read).toBe(true);
    }
    for (const fine of [
      'if (process.env.NEXT_RUNTIME === "nodejs") {}',
      "const env = serverEnv();",
      "process.exit(1);",
      "const environment = parseEnv(source);",
    ]) {
      expect(readsEnv(fine), fine).toBe(false);
    }
  });

  it("no product file outside core/env.ts reads process.env", () => {
    const files = sourceFiles();
    // The walk really covers the tree: the environment module itself is found and flagged.
    expect(files).toContain(ENV_MODULE);
    expect(files).toContain("instrumentation.ts");
    expect(files.length).toBeGreaterThan(50);
    expect(readsEnv(readFileSync(path.join(ROOT, ENV_MODULE), "utf8"))).toBe(true);

    const offenders = files.filter(
      (file) => file !== ENV_MODULE && readsEnv(readFileSync(path.join(ROOT, file), "utf8")),
    );
    expect(offenders, "read variables through serverEnv() from core/env.ts").toEqual([]);
  });
});
