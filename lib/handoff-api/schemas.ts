// What the public handoff API accepts and returns (docs/handoffs.md): keys, request bodies and
// query strings, and the output schemas every response is parsed through so no stored column leaks.
import { z } from "zod";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { redactText } from "@/lib/handoff/redact";

const HANDOFF_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
/**
 * Path segments under /api/handoffs that are routes, not keys. A record stored under one of them
 * before it became a route is still read with `GET /api/handoffs?key=…`.
 */
const RESERVED_KEYS = ["groom", "schema", "export", "import"] as const;

const KEY_FORMAT_MESSAGE =
  "A key is 1–128 characters: letters, digits and . _ : -, starting with a letter or digit.";

/** A key's shape only: what names a stored record, reserved words included. */
export const storedKeySchema = z.string().regex(HANDOFF_KEY_PATTERN, KEY_FORMAT_MESSAGE);

export const handoffKeySchema = z
  .string()
  .regex(HANDOFF_KEY_PATTERN, KEY_FORMAT_MESSAGE)
  .refine((key) => !(RESERVED_KEYS as readonly string[]).includes(key), "This key is reserved.")
  // Keys are stored and logged as they are, so one that is itself a credential is refused.
  .refine((key) => redactText(key).kinds.length === 0, "This key looks like a secret.")
  // The published JSON Schema carries the reserved words; secret detection is the server's.
  .meta({
    description:
      "Names the record. The route words groom, schema, export and import are reserved, and a key that looks like a credential (an API key, a token) is refused with 400.",
    not: { enum: [...RESERVED_KEYS] },
  });

export const HANDOFF_STATES = ["prepared", "accepted", "superseded", "cancelled"] as const;

/** sha256 hex, as the API returns it. */
const contentIdSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "A content id is 64 lowercase hex characters.");

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/** Written only by resets: the groomer reads `session` with no thread as "thread deleted". */
export const SESSION_KIND = "session";
export const DEFAULT_API_KIND = "task";

export const revisionSchema = z.number().int().min(1).max(2_147_483_647);
// Strict, unlike the model-facing schema: a misspelt `must_preserve` must not vanish quietly.
export const strictArtifactSchema = handoffArtifactSchema.strict();
export const projectSchema = z.string().min(1).max(200).regex(NO_CONTROL).nullable().optional();
export const repoSchema = z.string().min(1).max(500).regex(NO_CONTROL).nullable().optional();
export const kindSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, "A kind is a short lowercase word, e.g. task or review.")
  .refine((kind) => kind !== SESSION_KIND, "Kind session is reserved for a thread's own resets.")
  .meta({ not: { const: SESSION_KIND } })
  .optional();

export const upsertBodySchema = z.strictObject({
  key: handoffKeySchema,
  revision: revisionSchema.optional(),
  artifact: strictArtifactSchema,
  project: projectSchema,
  repo: repoSchema,
  kind: kindSchema,
});

/** The longest markdown body a write may carry (the request itself is capped lower). */
export const MARKDOWN_BODY_MAX = 200_000;

/**
 * The plain write shape `{handoff_key, project, repo, kind, body}` with a markdown `body`, for
 * agents that write handoffs as text: the body is parsed as the card's markdown, and text that
 * does not parse becomes the state summary (see ./markdown-body.ts).
 */
export const markdownWriteBodySchema = z.strictObject({
  handoff_key: handoffKeySchema,
  project: projectSchema,
  repo: repoSchema,
  kind: kindSchema,
  body: z.string().min(1, "The body is the handoff as markdown.").max(MARKDOWN_BODY_MAX),
});

/** What an upsert stores: the artifact, and the markdown to keep when it is not the rendering. */
export type UpsertBody = z.output<typeof upsertBodySchema> & { markdown?: string };

/** Both write shapes, as the published JSON Schema describes `POST /api/handoffs`. */
export const writeBodyShapesSchema = z.union([upsertBodySchema, markdownWriteBodySchema]);

function isMarkdownShape(value: unknown): boolean {
  return typeof value === "object" && value !== null && ("handoff_key" in value || "body" in value);
}

/**
 * The body of `POST /api/handoffs`: a body naming `handoff_key` or `body` is the markdown shape,
 * anything else the artifact shape, so a bad field is reported against the shape it was meant for.
 */
export const writeBodySchema = z.unknown().transform((value, ctx) => {
  const markdownShape = isMarkdownShape(value);
  const parsed = (markdownShape ? markdownWriteBodySchema : upsertBodySchema).safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const paths =
        issue.code === "unrecognized_keys"
          ? issue.keys.map((name) => [...issue.path, name])
          : [issue.path];
      const message =
        issue.code === "unrecognized_keys" ? "This field is not allowed." : issue.message;
      for (const path of paths) ctx.addIssue({ code: "custom", message, path });
    }
    return z.NEVER;
  }
  return parsed.data;
});
export type WriteBody = z.output<typeof writeBodySchema>;

export const listQuerySchema = z.object({
  /** Reads one record like `GET /api/handoffs/{key}`, reserved words included. */
  key: storedKeySchema.optional(),
  revision: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  project: z.string().min(1).max(200).optional(),
  repo: z.string().min(1).max(500).optional(),
  state: z.enum(HANDOFF_STATES).optional(),
  cursor: z.string().min(1).max(300).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const getQuerySchema = z.object({
  revision: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
});

export const acceptBodySchema = z.strictObject({
  id: contentIdSchema,
  receiver: z
    .string()
    .min(1)
    .max(200)
    .regex(NO_CONTROL, "A receiver is one line of text.")
    .refine((r) => redactText(r).kinds.length === 0, "This receiver looks like a secret."),
});

export const cancelBodySchema = z.strictObject({ id: contentIdSchema.optional() });

export const continueBodySchema = z.strictObject({
  id: contentIdSchema.optional(),
  /** Chosen by the client so a retried request finds the thread it already made. */
  threadId: z.uuid().optional(),
  model: z.string().min(1).max(200).optional(),
});

const TOKEN_SCOPES = ["read", "write", "groom"] as const;

export const createTokenBodySchema = z.strictObject({
  name: z.string().trim().min(1, "Give the token a name.").max(100),
  scopes: z
    .array(z.enum(TOKEN_SCOPES))
    .min(1, "Choose at least one scope.")
    .transform((scopes) => TOKEN_SCOPES.filter((s) => scopes.includes(s))),
});

// ── Outputs ──

const timestamp = z.string();

const agentRefSchema = z.object({ id: z.string(), name: z.string() });

/** The brief of an `agent_handoff` revision, as stored (redacted). */
const agentBriefSchema = z.object({
  from: agentRefSchema,
  to: agentRefSchema,
  objective: z.string(),
  title: z.string().optional(),
  reason: z.string().optional(),
  contextSummary: z.string().optional(),
  workspaceRefs: z.array(z.string()),
  mustPreserve: z.array(z.string()),
  completionCriteria: z.array(z.string()),
  additional: z.record(z.string(), z.string()),
});

export const handoffRecordSchema = z.object({
  key: z.string(),
  revision: z.number().int(),
  id: z.string(),
  state: z.enum(HANDOFF_STATES),
  project: z.string().nullable(),
  repo: z.string().nullable(),
  kind: z.string(),
  created_by: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
  thread_id: z.string().nullable(),
  session_number: z.number().int().nullable(),
  model: z.string().nullable(),
  profile: z.string().nullable(),
  redactions: z.array(z.object({ kind: z.string(), field: z.string() })),
  /** What the reset that wrote this revision left out of the brief (empty for API writes). */
  dropped: z.array(z.object({ field: z.string(), item: z.string() })),
  artifact: handoffArtifactSchema,
  markdown: z.string(),
  /** `agent_handoff`: one agent's brief to the next (then `brief` holds its fields). */
  revision_kind: z.enum(["session", "agent_handoff"]),
  brief: agentBriefSchema.nullable(),
});
export type HandoffRecord = z.output<typeof handoffRecordSchema>;

const handoffPageSchema = z.object({
  handoffs: z.array(handoffRecordSchema),
  next_cursor: z.string().nullable(),
});
export type HandoffPage = z.output<typeof handoffPageSchema>;

export const receiptSchema = z.object({
  key: z.string(),
  id: z.string(),
  revision: z.number().int(),
  receiver: z.string(),
  accepted_at: timestamp,
});
export type Receipt = z.output<typeof receiptSchema>;

export const groomResultSchema = z.object({
  deleted: z.array(z.object({ key: z.string(), reason: z.enum(["thread_deleted", "expired"]) })),
  kept: z.array(z.object({ key: z.string(), reason: z.enum(["in_use", "recent"]) })),
});
export type GroomResult = z.output<typeof groomResultSchema>;

export const tokenViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
});
export type TokenView = z.output<typeof tokenViewSchema>;
