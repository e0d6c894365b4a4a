// The handoff format as JSON Schema (draft 2020-12), generated from the zod schemas the API parses
// with: `input` is what a writer may send (defaults optional), `output` what a reader gets (every
// field present). Served at GET /api/handoffs/schema and committed in docs/handoff-schema/, which
// `npm run handoffs:schema` regenerates and a test holds equal.
import { z } from "zod";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { exportDocumentSchema, importBodySchema } from "./exchange-schemas";
import { handoffRecordSchema, strictArtifactSchema, writeBodyShapesSchema } from "./schemas";

type JsonSchema = Record<string, unknown>;

interface Published {
  schema: z.ZodType;
  io: "input" | "output";
  title: string;
  description: string;
}

const PUBLISHED = {
  "artifact.input": {
    schema: strictArtifactSchema,
    io: "input",
    title: "Baton handoff artifact (input)",
    description:
      "The artifact as a writer sends it (schema_version 1): goal and state_summary are required, every other field defaults to [] or an empty string, and no other field is allowed.",
  },
  "artifact.output": {
    schema: handoffArtifactSchema,
    io: "output",
    title: "Baton handoff artifact (output)",
    description: "The artifact as stored and served: every field present, defaults filled in.",
  },
  "handoff.input": {
    schema: writeBodyShapesSchema,
    io: "input",
    title: "Baton handoff write (POST /api/handoffs)",
    description:
      "Either {key, revision?, artifact, project?, repo?, kind?} or {handoff_key, project?, repo?, kind?, body} with the handoff as markdown.",
  },
  "handoff.output": {
    schema: handoffRecordSchema,
    io: "output",
    title: "Baton handoff record",
    description:
      "A record as the API answers it: the envelope (key, revision, content id, state, project, repo, kind, authorship, thread) with one revision's artifact and markdown.",
  },
  "export.output": {
    schema: exportDocumentSchema,
    io: "output",
    title: "Baton handoff export",
    description:
      "GET /api/handoffs/export?format=json: one key's revisions as records, oldest first.",
  },
  "import.input": {
    schema: importBodySchema,
    io: "input",
    title: "Baton handoff import (POST /api/handoffs/import)",
    description:
      "One handoff as the card's markdown ({format: markdown, key, markdown, …}) or one record of an export ({format: json, handoff}).",
  },
} as const satisfies Record<string, Published>;

export type SchemaName = keyof typeof PUBLISHED;
export const SCHEMA_NAMES = Object.keys(PUBLISHED) as SchemaName[];

export function handoffJsonSchema(name: SchemaName): JsonSchema {
  const { schema, io, title, description } = PUBLISHED[name];
  const generated = z.toJSONSchema(schema, { io, target: "draft-2020-12" }) as JsonSchema;
  const { $schema, ...rest } = generated;
  return { $schema, title, description, ...rest };
}

/** Every published schema by name, in a stable order. */
export function handoffJsonSchemas(): Record<SchemaName, JsonSchema> {
  return Object.fromEntries(SCHEMA_NAMES.map((n) => [n, handoffJsonSchema(n)])) as Record<
    SchemaName,
    JsonSchema
  >;
}
