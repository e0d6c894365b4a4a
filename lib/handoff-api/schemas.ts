// What the public handoff API accepts and returns (docs/handoffs.md): keys, request bodies and
// query strings, and the output schemas every response is parsed through so no stored column leaks.
import { z } from "zod";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { redactText } from "@/lib/handoff/redact";

export const HANDOFF_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
/** Path segments under /api/handoffs that are routes, not keys. */
export const RESERVED_KEYS = ["groom"] as const;

export const handoffKeySchema = z
  .string()
  .regex(
    HANDOFF_KEY_PATTERN,
    "A key is 1–128 characters: letters, digits and . _ : -, starting with a letter or digit.",
  )
  .refine((key) => !(RESERVED_KEYS as readonly string[]).includes(key), "This key is reserved.")
  // Keys are stored and logged as they are, so one that is itself a credential is refused.
  .refine((key) => redactText(key).kinds.length === 0, "This key looks like a secret.");

export const HANDOFF_STATES = ["prepared", "accepted", "superseded", "cancelled"] as const;

/** sha256 hex, as the API returns it. */
export const contentIdSchema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "A content id is 64 lowercase hex characters.");

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;

/** Written only by resets: the groomer reads `session` with no thread as "thread deleted". */
export const SESSION_KIND = "session";
export const DEFAULT_API_KIND = "task";

export const upsertBodySchema = z.strictObject({
  key: handoffKeySchema,
  revision: z.number().int().min(1).max(2_147_483_647).optional(),
  // Strict, unlike the model-facing schema: a misspelt `must_preserve` must not vanish quietly.
  artifact: handoffArtifactSchema.strict(),
  project: z.string().min(1).max(200).regex(NO_CONTROL).nullable().optional(),
  repo: z.string().min(1).max(500).regex(NO_CONTROL).nullable().optional(),
  kind: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,31}$/, "A kind is a short lowercase word, e.g. task or review.")
    .refine((kind) => kind !== SESSION_KIND, "Kind session is reserved for a thread's own resets.")
    .optional(),
});
export type UpsertBody = z.output<typeof upsertBodySchema>;

export const listQuerySchema = z.object({
  project: z.string().min(1).max(200).optional(),
  repo: z.string().min(1).max(500).optional(),
  state: z.enum(HANDOFF_STATES).optional(),
  cursor: z.string().min(1).max(300).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type ListQuery = z.output<typeof listQuerySchema>;

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

export const TOKEN_SCOPES = ["read", "write", "groom"] as const;

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
export const agentBriefSchema = z.object({
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

export const handoffPageSchema = z.object({
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
