// The handoff artifact as providers are asked for it. OpenAI's strict structured output refuses a
// schema with an optional property (400), and Anthropic's native structured output only takes a
// few, so every field is required here and the ones the artifact defaults are nullable instead.
import { jsonSchema, type Schema } from "ai";
import { z } from "zod";
import { type HandoffArtifact, handoffArtifactSchema } from "./artifact";

// No length limits: strict modes reject or ignore them. The artifact schema checks them after.
const list = z.array(z.string()).nullable();

const providerArtifactSchema = z.strictObject({
  goal: z.string(),
  state_summary: z.string(),
  completed_work: list,
  in_progress: list,
  remaining_tasks: z.array(z.strictObject({ id: z.string(), task: z.string() })).nullable(),
  key_decisions: list,
  confirmed_facts: list,
  unknowns: list,
  must_preserve: list,
  files_modified: list,
  last_completed_step: z.string().nullable(),
  next_step: z.string().nullable(),
  needs_authorization: list,
} satisfies Record<keyof HandoffArtifact, z.ZodType>);

/** The JSON Schema sent to providers: every property required, no extra properties anywhere. */
function providerArtifactJsonSchema(): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(providerArtifactSchema, {
    target: "draft-7",
    io: "input",
  });
  return schema;
}

/**
 * What a provider answered, as an artifact: a null means the field's default. A field left out
 * entirely (a server that does not enforce the schema) is accepted the same way, so a loosely
 * constrained local model still writes its own handoff.
 */
export function parseProviderArtifact(value: unknown) {
  const fields =
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null))
      : value;
  return handoffArtifactSchema.safeParse(fields);
}

/** The schema for `Output.object`: the strict JSON Schema out, the artifact back. */
export function providerArtifactOutputSchema(): Schema<HandoffArtifact> {
  return jsonSchema<HandoffArtifact>(providerArtifactJsonSchema(), {
    validate: (value) => {
      const parsed = parseProviderArtifact(value);
      return parsed.success
        ? { success: true, value: parsed.data }
        : { success: false, error: parsed.error };
    },
  });
}
