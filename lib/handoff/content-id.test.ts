import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  ARTIFACT_LIST_FIELDS,
  HANDOFF_SCHEMA_VERSION,
  type HandoffArtifact,
  handoffArtifactSchema,
} from "./artifact";
import { type ContentIdInput, canonicalJson, contentId } from "./content-id";

const VECTORS = path.join(import.meta.dirname, "testdata", "rfc8785");

describe("canonicalJson", () => {
  const names = readdirSync(path.join(VECTORS, "input")).filter((n) => n.endsWith(".json.txt"));

  it("has RFC 8785 vectors to check", () => {
    expect(names.length).toBeGreaterThan(0);
  });

  it.each(names)("canonicalizes %s to the reference bytes", (name) => {
    const input = JSON.parse(readFileSync(path.join(VECTORS, "input", name), "utf8"));
    const expected = readFileSync(path.join(VECTORS, "output", name));
    expect(Buffer.from(canonicalJson(input), "utf8").equals(expected)).toBe(true);
  });

  it("refuses values JCS cannot represent", () => {
    expect(() => canonicalJson(undefined)).toThrow();
    expect(() => canonicalJson({ n: Number.NaN })).toThrow();
    expect(() => canonicalJson({ s: "\ud800" })).toThrow();
  });
});

describe("contentId", () => {
  const artifact: HandoffArtifact = handoffArtifactSchema.parse({
    goal: "g",
    state_summary: "s",
    remaining_tasks: [{ id: "t1", task: "x" }],
  });
  const base: ContentIdInput = {
    schema_version: HANDOFF_SCHEMA_VERSION,
    handoff_key: "k",
    revision: 1,
    artifact,
  };

  it("is the sha256 hex of the hand-written canonical form", () => {
    const canonical =
      '{"artifact":{"completed_work":[],"confirmed_facts":[],"files_modified":[],"goal":"g",' +
      '"in_progress":[],"key_decisions":[],"last_completed_step":"","must_preserve":[],' +
      '"needs_authorization":[],"next_step":"","remaining_tasks":[{"id":"t1","task":"x"}],' +
      '"state_summary":"s","unknowns":[]},"handoff_key":"k","revision":1,"schema_version":1}';
    expect(contentId(base)).toBe(createHash("sha256").update(canonical).digest("hex"));
    expect(contentId(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("does not depend on key order", () => {
    const reversed = Object.fromEntries(Object.entries(artifact).reverse()) as HandoffArtifact;
    expect(
      contentId({ artifact: reversed, revision: 1, handoff_key: "k", schema_version: 1 }),
    ).toBe(contentId(base));
  });

  it("ignores extra fields beside the four it hashes", () => {
    expect(contentId({ ...base, created_at: "now" } as ContentIdInput)).toBe(contentId(base));
  });

  it("changes when any single field changes", () => {
    const id = contentId(base);
    const variants: ContentIdInput[] = [
      { ...base, schema_version: 2 },
      { ...base, handoff_key: "k2" },
      { ...base, revision: 2 },
      { ...base, artifact: { ...artifact, goal: "g2" } },
      { ...base, artifact: { ...artifact, state_summary: "s2" } },
      { ...base, artifact: { ...artifact, last_completed_step: "x" } },
      { ...base, artifact: { ...artifact, next_step: "x" } },
      { ...base, artifact: { ...artifact, remaining_tasks: [{ id: "t2", task: "x" }] } },
      { ...base, artifact: { ...artifact, remaining_tasks: [{ id: "t1", task: "y" }] } },
      ...ARTIFACT_LIST_FIELDS.map((field) => ({
        ...base,
        artifact: { ...artifact, [field]: ["x"] },
      })),
    ];
    const ids = variants.map(contentId);
    expect(ids).not.toContain(id);
    expect(new Set(ids).size).toBe(variants.length);
  });

  it("distinguishes list order", () => {
    const a = { ...base, artifact: { ...artifact, confirmed_facts: ["a", "b"] } };
    const b = { ...base, artifact: { ...artifact, confirmed_facts: ["b", "a"] } };
    expect(contentId(a)).not.toBe(contentId(b));
  });
});
