// README and .env.example document every variable core/env.ts reads, and nothing it does not.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envSchema } from "./env";

const ROOT = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");
const VARIABLES = Object.keys(envSchema.shape);

function readmeEnvSection(): string {
  const readme = read("README.md");
  const start = readme.indexOf("## Environment variables");
  const end = readme.indexOf("\n## ", start + 1);
  expect(start).toBeGreaterThanOrEqual(0);
  return readme.slice(start, end);
}

describe("environment documentation", () => {
  it("the README's table has a row for every variable", () => {
    const rows = new Set(
      [...readmeEnvSection().matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((match) => match[1]),
    );
    expect(VARIABLES.filter((name) => !rows.has(name))).toEqual([]);
    expect([...rows].filter((name) => name && !VARIABLES.includes(name))).toEqual([]);
  });

  it(".env.example names every variable, and every example line is a real one", () => {
    const example = read(".env.example");
    const missing = VARIABLES.filter((name) => !new RegExp(`\\b${name}\\b`).test(example));
    expect(missing).toEqual([]);
    const assigned = [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
    expect(assigned.length).toBeGreaterThan(20);
    expect(assigned.filter((name) => name && !VARIABLES.includes(name))).toEqual([]);
  });
});
