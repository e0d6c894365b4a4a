// Bodies of POST /api/handoffs shared by the protocol tests (each must be a 400 that stores
// nothing) and the format tests (the published input schema must reject each, and accept what
// the API stores).
import { type HandoffArtifactInput, handoffArtifactSchema } from "@/lib/handoff/artifact";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { artifactOf } from "./handoff-support";

type Body = Record<string, unknown>;

const markdownValid = () => ({
  handoff_key: "valid-key",
  body: "Deploy notes: the build is green.",
});

const lists = [
  "completed_work",
  "in_progress",
  "key_decisions",
  "confirmed_facts",
  "unknowns",
  "must_preserve",
  "files_modified",
  "needs_authorization",
];
const valid = () => ({ key: "valid-key", artifact: artifactOf() });
const without = (obj: Body, field: string) =>
  Object.fromEntries(Object.entries(obj).filter(([k]) => k !== field));
const withArtifact = (patch: Body, drop?: string) => {
  const artifact: Body = { ...artifactOf(), ...patch };
  return { key: "valid-key", artifact: drop ? without(artifact, drop) : artifact };
};
export const malformedWriteBodies: [string, unknown, string | null][] = [
  ["key missing", without(valid(), "key"), "key"],
  ["key of the wrong type", { ...valid(), key: 42 }, "key"],
  ["key with a space", { ...valid(), key: "bad key" }, "key"],
  ["key starting with a dot", { ...valid(), key: ".hidden" }, "key"],
  ["key with a slash", { ...valid(), key: "a/b" }, "key"],
  ["key longer than 128 characters", { ...valid(), key: "k".repeat(129) }, "key"],
  ["reserved key groom", { ...valid(), key: "groom" }, "key"],
  ["reserved key schema", { ...valid(), key: "schema" }, "key"],
  ["reserved key export", { ...valid(), key: "export" }, "key"],
  ["reserved key import", { ...valid(), key: "import" }, "key"],
  ["key that is itself a secret", { ...valid(), key: `sk-${"a1B2c3D4".repeat(4)}` }, "key"],
  ["artifact missing", without(valid(), "artifact"), "artifact"],
  ["artifact of the wrong type", { ...valid(), artifact: "do the thing" }, "artifact"],
  ["goal missing", withArtifact({}, "goal"), "artifact.goal"],
  ["goal of the wrong type", withArtifact({ goal: 7 }), "artifact.goal"],
  ["state_summary missing", withArtifact({}, "state_summary"), "artifact.state_summary"],
  [
    "state_summary of the wrong type",
    withArtifact({ state_summary: null }),
    "artifact.state_summary",
  ],
  ...lists.map((f): [string, unknown, string] => [
    `${f} of the wrong type`,
    withArtifact({ [f]: "one item" }),
    `artifact.${f}`,
  ]),
  ...lists.map((f): [string, unknown, string] => [
    `${f} item of the wrong type`,
    withArtifact({ [f]: [3] }),
    `artifact.${f}.0`,
  ]),
  [
    "remaining_tasks of the wrong type",
    withArtifact({ remaining_tasks: ["t1"] }),
    "artifact.remaining_tasks.0",
  ],
  [
    "remaining task without an id",
    withArtifact({ remaining_tasks: [{ task: "x" }] }),
    "artifact.remaining_tasks.0.id",
  ],
  [
    "remaining task id of the wrong type",
    withArtifact({ remaining_tasks: [{ id: 1, task: "x" }] }),
    "artifact.remaining_tasks.0.id",
  ],
  [
    "last_completed_step of the wrong type",
    withArtifact({ last_completed_step: 5 }),
    "artifact.last_completed_step",
  ],
  ["next_step of the wrong type", withArtifact({ next_step: ["x"] }), "artifact.next_step"],
  ["misspelt artifact field", withArtifact({ must_preseve: ["x"] }), "artifact.must_preseve"],
  ["revision of the wrong type", { ...valid(), revision: "2" }, "revision"],
  ["revision zero", { ...valid(), revision: 0 }, "revision"],
  ["fractional revision", { ...valid(), revision: 1.5 }, "revision"],
  ["project of the wrong type", { ...valid(), project: 5 }, "project"],
  ["repo of the wrong type", { ...valid(), repo: ["acme/api"] }, "repo"],
  ["kind of the wrong type", { ...valid(), kind: 3 }, "kind"],
  ["kind session, which only resets write", { ...valid(), kind: "session" }, "kind"],
  ["created_by in the body", { ...valid(), created_by: "user:someone-else" }, null],
  ["body that is an array", [valid()], null],
  ["markdown body missing", { handoff_key: "valid-key", project: "p" }, "body"],
  ["markdown body empty", { handoff_key: "valid-key", body: "" }, "body"],
  ["markdown body of the wrong type", { handoff_key: "valid-key", body: { goal: "x" } }, "body"],
  ["markdown body without a key", { body: "# Handoff: x" }, "handoff_key"],
  ["markdown shape with a reserved key", { handoff_key: "schema", body: "notes" }, "handoff_key"],
  [
    "markdown shape with an artifact too",
    { ...markdownValid(), artifact: artifactOf() },
    "artifact",
  ],
  ["markdown shape with key too", { ...markdownValid(), key: "valid-key" }, "key"],
  ["markdown shape with a revision", { ...markdownValid(), revision: 2 }, "revision"],
  ["markdown shape with kind session", { ...markdownValid(), kind: "session" }, "kind"],
  [
    "markdown shape with a project of the wrong type",
    { ...markdownValid(), project: 1 },
    "project",
  ],
  ["body that is not JSON", "{key: valid-key", null],
];

/**
 * The one refusal no JSON Schema can express: whether a key looks like a credential is decided by
 * the server's secret scanner (the schema's key description says so).
 */
export const SERVER_ONLY_REFUSALS: ReadonlySet<string> = new Set(["key that is itself a secret"]);

const fullArtifact: HandoffArtifactInput = {
  goal: "Move billing to the new ledger",
  state_summary: "Schema migrated\nBackfill half done",
  completed_work: ["Wrote the migration"],
  in_progress: ["Backfill"],
  remaining_tasks: [{ id: "t1", task: "Switch reads" }],
  key_decisions: ["Keep the old table for a week"],
  confirmed_facts: ["The ledger has 1.2M rows"],
  unknowns: ["Is the reporting job reading the old table?"],
  must_preserve: ["Never delete invoices"],
  files_modified: ["db/ledger.sql"],
  last_completed_step: "Ran the migration on staging",
  next_step: "Backfill the rest",
  needs_authorization: ["Run the migration on production"],
};

/** Bodies the API stores (201), each under a fresh key from `key`. */
export function storedWriteBodies(key: (label: string) => string): [string, Body][] {
  return [
    ["the smallest artifact", { key: key("small"), artifact: artifactOf() }],
    ["every artifact field", { key: key("full"), artifact: fullArtifact }],
    [
      "a revision and the envelope",
      {
        key: key("env"),
        revision: 3,
        artifact: artifactOf(),
        project: "billing",
        repo: "acme/api",
        kind: "review",
      },
    ],
    [
      "a null project and repo",
      { key: key("nulls"), artifact: artifactOf(), project: null, repo: null },
    ],
    [
      "markdown in the card's format",
      {
        handoff_key: key("card"),
        project: "billing",
        repo: "acme/api",
        kind: "task",
        body: renderHandoffMarkdown(handoffArtifactSchema.parse(fullArtifact)),
      },
    ],
    [
      "markdown that is free text",
      { handoff_key: key("text"), body: "Left off at the backfill.\n- check the job" },
    ],
  ];
}
