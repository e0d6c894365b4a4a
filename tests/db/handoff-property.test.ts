// The content id over the real POST route: independent of how the JSON text is laid out, and
// different whenever any value differs. Recomputed here from the README's recipe, not the lib.
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ARTIFACT_LIST_FIELDS } from "@/lib/handoff/artifact";
import { type Answer, upsert, userWithToken } from "./handoff-support";

let headers: Headers;
beforeAll(async () => {
  headers = (await userWithToken()).headers;
});

// Values from a plain alphabet, so redaction (which rewrites secrets) never alters them.
const word = fc.stringMatching(/^[a-z0-9 ,.éß漢]{0,24}$/);
const items = fc.array(word, { maxLength: 3 });
const artifactArb = fc.record({
  goal: word,
  state_summary: word,
  completed_work: items,
  in_progress: items,
  remaining_tasks: fc.array(fc.record({ id: fc.stringMatching(/^t[0-9]{1,3}$/), task: word }), {
    maxLength: 3,
  }),
  key_decisions: items,
  confirmed_facts: items,
  unknowns: items,
  must_preserve: items,
  files_modified: items,
  last_completed_step: word,
  next_step: word,
  needs_authorization: items,
});
type Artifact = typeof artifactArb extends fc.Arbitrary<infer T> ? T : never;

let counter = 0;
const freshKey = () => `prop-${Date.now().toString(36)}-${counter++}`;

/** The README's recipe: sha256 hex of the RFC 8785 JSON of {schema_version, key, revision, artifact}. */
function readmeContentId(key: string, revision: number, artifact: Artifact): string {
  const json = canonicalize({ schema_version: 1, handoff_key: key, revision, artifact });
  return createHash("sha256")
    .update(json ?? "", "utf8")
    .digest("hex");
}

/** JSON text with object keys shuffled and whitespace sprinkled between tokens. */
function looseJson(value: unknown, rand: () => number): string {
  const ws = () => [" ", "\n", "\t", "\r\n  ", ""][Math.floor(rand() * 5)] ?? "";
  if (Array.isArray(value)) {
    return `[${ws()}${value.map((v) => looseJson(v, rand)).join(`${ws()},${ws()}`)}${ws()}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(() => rand() - 0.5);
    const body = entries
      .map(([k, v]) => `${ws()}${JSON.stringify(k)}${ws()}:${ws()}${looseJson(v, rand)}`)
      .join(`${ws()},`);
    return `{${body}${ws()}}`;
  }
  return JSON.stringify(value);
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const idOf = (res: Answer) => String(res.body.id);

describe("content id (property)", () => {
  it("is unchanged by the key order and whitespace of the JSON sent", async () => {
    await fc.assert(
      fc.asyncProperty(
        artifactArb,
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer(),
        async (artifact, revision, seed) => {
          const key = freshKey();
          const compact = await upsert(headers, JSON.stringify({ key, revision, artifact }));
          expect(compact.status).toBe(201);
          expect(idOf(compact)).toBe(readmeContentId(key, revision, artifact));
          const loose = looseJson({ artifact, revision, key }, seeded(seed));
          const again = await upsert(headers, loose);
          // Same id, so the route recognises the same packet: 200 with the original record.
          expect(again.status).toBe(200);
          expect(idOf(again)).toBe(idOf(compact));
        },
      ),
      { numRuns: 60 },
    );
  });

  const fields = [
    "goal",
    "state_summary",
    "last_completed_step",
    "next_step",
    "remaining_tasks",
    ...ARTIFACT_LIST_FIELDS,
  ] as const;

  it("changes with the value of any field, the key and the revision", async () => {
    await fc.assert(
      fc.asyncProperty(
        artifactArb,
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom(...fields, "key" as const, "revision" as const),
        word,
        async (artifact, revision, field, extra) => {
          const key = freshKey();
          const base = await upsert(headers, { key, revision, artifact });
          expect(base.status).toBe(201);

          if (field === "key") {
            const other = await upsert(headers, { key: `${key}x`, revision, artifact });
            expect(idOf(other)).not.toBe(idOf(base));
            return;
          }
          if (field === "revision") {
            const next = await upsert(headers, { key, revision: revision + 1, artifact });
            expect(next.status).toBe(201);
            expect(idOf(next)).not.toBe(idOf(base));
            return;
          }
          const changed: Artifact = { ...artifact };
          if (field === "remaining_tasks") {
            changed.remaining_tasks = [...artifact.remaining_tasks, { id: "t999", task: extra }];
          } else if (typeof artifact[field] === "string") {
            (changed as Record<string, unknown>)[field] = `${artifact[field]}~${extra}`;
          } else {
            (changed as Record<string, unknown>)[field] = [...(artifact[field] as string[]), extra];
          }
          expect(readmeContentId(key, revision, changed)).not.toBe(idOf(base));
          // Other content at the same revision is a different id, so the route refuses it.
          const clash = await upsert(headers, { key, revision, artifact: changed });
          expect(clash.status).toBe(409);
        },
      ),
      { numRuns: 80 },
    );
  });
});
