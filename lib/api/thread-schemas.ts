// The thread API's answers as the browser parses them (`GET /api/threads/{id}`, the shared
// view's pages): the envelope is checked field by field; message parts and handoffs, whose
// shapes the AI SDK and the handoff schema own, are checked to be objects of a known kind.
import { z } from "zod";
import type {
  ActiveResetView,
  ChatMessage,
  ContextPart,
  DraftView,
  HandoffView,
  LiveStream,
  MessageMetadata,
  SessionSummary,
  ThreadPinView,
} from "@/lib/chat/types";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type Part = ChatMessage["parts"][number];

const partSchema = z.custom<Part>(
  (value) => isRecord(value) && typeof value.type === "string",
  "a message part with a type",
);

const handoffSchema = z.custom<HandoffView>(
  (value) =>
    isRecord(value) &&
    typeof value.key === "string" &&
    typeof value.markdown === "string" &&
    isRecord(value.artifact),
  "a handoff revision",
);

const statusSchema = z.enum(["complete", "partial", "queued", "error", "interrupted"]);

const agentRefSchema = z.object({ id: z.string(), name: z.string() });

const messageMetadataSchema: z.ZodType<MessageMetadata> = z.object({
  seq: z.number().optional(),
  sessionId: z.string().optional(),
  status: statusSchema.optional(),
  model: z.string().optional(),
  agent: agentRefSchema.optional(),
  createdAt: z.string().optional(),
  compacted: z.boolean().optional(),
});

const chatMessageSchema: z.ZodType<ChatMessage> = z.object({
  id: z.string(),
  role: z.enum(["user", "assistant", "system"]),
  parts: z.array(partSchema),
  metadata: messageMetadataSchema.optional(),
});

const triggerSchema = z.enum(["initial", "threshold", "manual", "agent_handoff", "continuation"]);

const sessionSummarySchema: z.ZodType<SessionSummary> = z.object({
  id: z.string(),
  number: z.number(),
  model: z.string(),
  profile: z.string(),
  trigger: triggerSchema,
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  firstSeq: z.number().nullable(),
  messageCount: z.number(),
  handoff: handoffSchema.nullable(),
  agent: agentRefSchema.optional(),
});

const contextSchema: z.ZodType<ContextPart> = z.object({
  inputTokens: z.number(),
  contextWindow: z.number(),
  utilization: z.number(),
  threshold: z.number(),
  strategy: z.enum(["reset", "compact", "off"]),
  calibration: z.number().optional(),
});

const liveStreamSchema: z.ZodType<LiveStream> = z.object({
  streamId: z.string(),
  requestId: z.string().nullable(),
  continuesMessageId: z.string().nullable(),
  startedAt: z.string(),
});

const activeResetSchema: z.ZodType<ActiveResetView> = z.object({
  fromSession: z.number(),
  trigger: triggerSchema,
  startedAt: z.string(),
});

const threadPinSchema: z.ZodType<ThreadPinView> = z.object({
  id: z.string(),
  text: z.string(),
});

const artifactSchema = z.custom<DraftView["artifact"]>(
  (value) => isRecord(value) && typeof value.goal === "string",
  "a handoff artifact",
);

export const draftViewSchema: z.ZodType<DraftView> = z.object({
  threadId: z.string(),
  fromSession: z.number(),
  trigger: triggerSchema,
  state: z.enum(["awaiting_review", "committed", "cancelled", "expired"]),
  artifact: artifactSchema,
  dropped: z.array(z.object({ field: z.string(), item: z.string() })),
  source: z.enum(["model", "repaired", "mechanical"]),
  createdAt: z.string(),
  expiresAt: z.string(),
});

/** One page of `GET /api/threads/{id}` (ThreadView). */
export const threadViewPageSchema = z.object({
  thread: z.object({ id: z.string(), title: z.string(), profile: z.string() }),
  sessions: z.array(sessionSummarySchema),
  messages: z.array(chatMessageSchema),
  olderCursor: z.number().nullable(),
  newerCursor: z.number().nullable(),
  context: contextSchema.nullable(),
  answering: z.array(z.string()),
  // Older servers answer without them: nothing is live then.
  live: z.array(liveStreamSchema).default([]),
  reset: activeResetSchema.nullable().default(null),
  pins: z.array(threadPinSchema).default([]),
  draft: draftViewSchema.nullable().default(null),
  /** Absent from pages read without the context (older pages): keep what the view said. */
  review: z.enum(["never", "manual", "always"]).optional(),
});

export type ThreadViewPage = z.output<typeof threadViewPageSchema>;
/** When the thread's resets stop at a draft for the user's review. */
export type ReviewSetting = NonNullable<ThreadViewPage["review"]>;

const sharedSessionSchema = z.intersection(
  sessionSummarySchema,
  z.object({ cursor: z.string().nullable() }),
);

/** One page of a share link's messages (`/share/{token}/messages`). */
export const sharedThreadPageSchema = z.object({
  thread: z.object({ title: z.string(), createdAt: z.string(), updatedAt: z.string() }),
  sessions: z.array(sharedSessionSchema),
  messages: z.array(chatMessageSchema),
  olderCursor: z.string().nullable(),
  newerCursor: z.string().nullable(),
});
