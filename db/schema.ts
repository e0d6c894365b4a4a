// Every table Baton stores: Better Auth's identity tables, then threads, their sessions and
// messages. Ownership flows from users → threads → sessions/messages; queries scope by user.
import { getTableColumns, sql } from "drizzle-orm";
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { PlanItem } from "@/core/plan-items";
import type { AgentBrief, MessageStatus, SessionTrigger } from "@/core/types";
import { BUILTIN_TOOL_NAMES } from "../core/tool-names";

/*
 * Full-text search (search_history): a stored `tsvector`, generated from the row's own text with
 * the two-argument `to_tsvector('english', …)`, which is immutable. A message's text lives in its
 * jsonb parts, so its column reads them through `baton_message_text` (an IMMUTABLE SQL function
 * the migration creates): the text parts and every string in tool outputs. Text is cut to
 * SEARCH_TEXT_CHARS first, well inside a tsvector's 1 MB limit.
 */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });
export const SEARCH_TEXT_CHARS = 300_000;

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

// ── Better Auth (model names user/session/account/verification, mapped in lib/auth) ──

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  isAnonymous: boolean("is_anonymous").default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type User = typeof users.$inferSelect;

export const authSessions = pgTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("auth_sessions_user_idx").on(t.userId)],
);

export const authAccounts = pgTable(
  "auth_accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("auth_accounts_user_idx").on(t.userId)],
);

export const authVerifications = pgTable("auth_verifications", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

// ── Chat ──

export const threads = pgTable(
  "threads",
  {
    id: uuid("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull().default("New chat"),
    model: text("model").notNull(),
    profile: text("profile").notNull().default("default"),
    /** Read-only share link token (≥128 bits, URL-safe); null when the thread is private. */
    shareToken: text("share_token").unique(),
    sharedAt: timestamp("shared_at", { withTimezone: true }),
    /** Next per-thread message sequence number; bumping it takes the thread row lock. */
    nextSeq: integer("next_seq").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("threads_user_updated_id_idx").on(t.userId, t.updatedAt, t.id)],
);
export type Thread = typeof threads.$inferSelect;

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    model: text("model").notNull(),
    profile: text("profile").notNull().default("default"),
    trigger: text("trigger").$type<SessionTrigger>().notNull().default("initial"),
    /** Provider-reported input tokens of this session's last model call. */
    lastInputTokens: integer("last_input_tokens"),
    /** Highest message seq covered by lastInputTokens; later messages are estimated locally. */
    lastInputSeq: integer("last_input_seq"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    endTokens: integer("end_tokens"),
    endUtilization: jsonb("end_utilization").$type<number>(),
    /** The handoff revision this session started from (null for a fresh thread's session 1). */
    handoffRevisionId: uuid("handoff_revision_id").references(() => handoffRevisions.id, {
      onDelete: "set null",
    }),
    /** Compaction: a summary standing in for this session's messages up to summarySeq. */
    summary: text("summary"),
    summarySeq: integer("summary_seq"),
    /** For a session a context reset started: how that reset went (the divider shows it). */
    resetStats: jsonb("reset_stats").$type<ResetStats>(),
    /**
     * How many messages this session holds and the lowest seq among them, kept by triggers on
     * `messages` (insert, delete, a move between sessions) so a page read never counts rows.
     */
    messageCount: integer("message_count").notNull().default(0),
    firstSeq: integer("first_seq"),
    /**
     * Provider-reported input tokens ÷ the local estimate of the same prompt, learned from this
     * session's calls; applied to what is estimated between calls. Null until a call reported usage.
     */
    tokenRatio: jsonb("token_ratio").$type<number>(),
  },
  // The unique (thread, number) is what makes a duplicated reset unable to open a second session.
  (t) => [uniqueIndex("sessions_thread_number_uq").on(t.threadId, t.number)],
);
export type ChatSession = typeof sessions.$inferSelect;

/** What a committed reset measured, stored on the session it started. */
export interface ResetStats {
  /** From taking the lease to the commit. */
  durationMs: number;
  /** The new session's estimated context at its start (prompt, brief, tools, moved messages). */
  startTokens: number;
  contextWindow: number;
  /** Who wrote the handoff: the model, the model on its repair attempt, or the mechanical merge. */
  source: "model" | "repaired" | "mechanical";
  /** Tokens the model calls that wrote the handoff spent (input and output; 0 when mechanical). */
  writerTokens: number;
}

export interface MessageUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export const messages = pgTable(
  "messages",
  {
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    /** The AI SDK UI message id; unique within its thread. */
    id: text("id").notNull(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    role: text("role").$type<"user" | "assistant" | "system">().notNull(),
    parts: jsonb("parts").$type<unknown[]>().notNull(),
    status: text("status").$type<MessageStatus>().notNull().default("complete"),
    model: text("model"),
    /** The agent (profile slug) that wrote an assistant message. */
    agent: text("agent"),
    /** The run that wrote an assistant message (null for user messages and older rows). */
    runId: uuid("run_id"),
    usage: jsonb("usage").$type<MessageUsage>(),
    /** Local token estimate of this message, cached so accounting costs O(new text). */
    tokenCount: integer("token_count").notNull().default(0),
    compacted: boolean("compacted").notNull().default(false),
    searchTsv: tsvector("search_tsv").generatedAlwaysAs(
      sql`to_tsvector('english'::regconfig, left(baton_message_text(parts), ${sql.raw(String(SEARCH_TEXT_CHARS))}))`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.threadId, t.id] }),
    uniqueIndex("messages_thread_seq_uq").on(t.threadId, t.seq),
    index("messages_session_seq_idx").on(t.sessionId, t.seq),
    index("messages_search_idx").using("gin", t.searchTsv),
  ],
);
/** A message as code reads it (its search column is for search_history alone). */
export type Message = Omit<typeof messages.$inferSelect, "searchTsv">;
/**
 * Every column but the search vector, which only recall reads: select and return these, or each
 * read of a message also fetches a vector about the size of its text.
 */
const { searchTsv: _messageSearch, ...messageColumns } = getTableColumns(messages);

export { messageColumns };

// ── Context engine: profiles, resets, handoffs ──

/**
 * Who may hand work to an agent and whether it may hand work on (docs/agents.md). Defaults:
 * `defaultDelegation` in lib/agents/profile-schema.ts.
 */
export interface ProfileDelegation {
  /** This agent may call handoff_to_agent (with the tool in its allow-list). */
  canHandoff: boolean;
  /** Other agents may reach this one at all. */
  callable: boolean;
  /** Other agents may hand the next stage of a run to this one. */
  allowAsHandoffTarget: boolean;
  /** The slugs of agents that may hand off to this one, or "*" for any. */
  allowedCallers: string[] | "*";
  /** Handoffs a run may make before this agent may hand off no more (counted within the run). */
  maxHandoffDepth: number;
}

/**
 * A user's agent profiles, keyed by (owner, slug): `id` is the slug, the agent's public name
 * (what tools and the API call it). The built-in `default` profile needs no row.
 */
export const agentProfiles = pgTable(
  "agent_profiles",
  {
    id: text("id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    systemPrompt: text("system_prompt").notNull(),
    /** Null: the thread's selected model. */
    model: text("model"),
    contextStrategy: text("context_strategy")
      .$type<"reset" | "compact" | "auto" | "off">()
      .notNull()
      .default("auto"),
    resetThreshold: jsonb("reset_threshold").$type<number>().notNull().default(0.8),
    compactThreshold: jsonb("compact_threshold").$type<number>().notNull().default(0.5),
    /** Step limit of one run (a turn with tools): model calls, each followed by its tool calls. */
    maxSteps: integer("max_steps").notNull().default(25),
    /** The largest share of the context window a carried-over brief may take. */
    briefShare: jsonb("brief_share").$type<number>().notNull().default(0.2),
    /**
     * When a reset's handoff is shown for review before it replaces the context: never, for
     * manual resets (the reset button opens the draft), or always (threshold resets stop too).
     */
    reviewResets: text("review_resets").$type<ReviewResets>().notNull().default("manual"),
    /**
     * Utilization past which the next handoff is drafted ahead in the background, so a reset at
     * the threshold commits without waiting for the model. Null: no drafting ahead.
     */
    draftThreshold: jsonb("draft_threshold").$type<number>().default(0.65),
    /** Tool names this agent may call: built-in names, `handoff_to_agent`, `list_agents`. */
    toolsAllow: jsonb("tools_allow")
      .$type<string[]>()
      .notNull()
      .default([...BUILTIN_TOOL_NAMES]),
    delegation: jsonb("delegation").$type<ProfileDelegation>().notNull().default({
      canHandoff: false,
      callable: true,
      allowAsHandoffTarget: true,
      allowedCallers: "*",
      maxHandoffDepth: 3,
    }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.id] })],
);
export type AgentProfile = typeof agentProfiles.$inferSelect;

export type ReviewResets = "never" | "manual" | "always";

/** `awaiting_review`: the handoff is drafted and waits for the user (reset_drafts); no lease. */
export type ResetState = "running" | "awaiting_review" | "committed" | "cancelled" | "failed";

/**
 * One row per (thread, fromSession) reset: its lease while running and, once committed, the
 * session it created — so a retried or duplicated reset finds the session instead of making one.
 */
export const threadResets = pgTable(
  "thread_resets",
  {
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    fromSession: integer("from_session").notNull(),
    state: text("state").$type<ResetState>().notNull().default("running"),
    trigger: text("trigger").$type<SessionTrigger>().notNull(),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }).notNull(),
    newSessionId: uuid("new_session_id"),
    reason: text("reason"),
    /** The server instance holding the lease: a lease whose instance is gone is free. */
    instanceId: text("instance_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.fromSession] })],
);
export type ThreadReset = typeof threadResets.$inferSelect;

export type HandoffState = "prepared" | "accepted" | "superseded" | "cancelled";
export type HandoffRevisionKind = "session" | "agent_handoff";

export interface RedactionRecord {
  kind: string;
  field: string;
}

/** An item a reset left out of the brief it wrote (the artifact field and the item's text). */
export interface DroppedRecord {
  field: string;
  item: string;
}

/** The current record per (owner, key); every stored revision is in handoff_revisions. */
export const handoffs = pgTable(
  "handoffs",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    handoffKey: text("handoff_key").notNull(),
    project: text("project"),
    repo: text("repo"),
    kind: text("kind").notNull().default("session"),
    createdBy: text("created_by").notNull(),
    revision: integer("revision").notNull(),
    contentId: text("content_id").notNull(),
    artifact: jsonb("artifact").$type<Record<string, unknown>>().notNull(),
    markdown: text("markdown").notNull(),
    state: text("state").$type<HandoffState>().notNull().default("prepared"),
    threadId: uuid("thread_id").references(() => threads.id, { onDelete: "set null" }),
    sessionNumber: integer("session_number"),
    model: text("model"),
    profile: text("profile"),
    redactions: jsonb("redactions").$type<RedactionRecord[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("handoffs_owner_key_uq").on(t.ownerId, t.handoffKey),
    index("handoffs_owner_project_repo_updated_idx").on(
      t.ownerId,
      t.project,
      t.repo,
      t.updatedAt,
      t.id,
    ),
    index("handoffs_thread_idx").on(t.threadId),
    // The unfiltered list (and the home page's continue list): newest first per owner. Plain
    // ascending columns: read backwards they give `updated_at desc, id desc` with Postgres'
    // default NULLS FIRST, which is what the queries ask for (a `desc nulls last` index is not).
    index("handoffs_owner_updated_id_idx").on(t.ownerId, t.updatedAt, t.id),
  ],
);
export type Handoff = typeof handoffs.$inferSelect;

export const handoffRevisions = pgTable(
  "handoff_revisions",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    handoffId: uuid("handoff_id")
      .notNull()
      .references(() => handoffs.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    contentId: text("content_id").notNull(),
    artifact: jsonb("artifact").$type<Record<string, unknown>>().notNull(),
    markdown: text("markdown").notNull(),
    state: text("state").$type<HandoffState>().notNull().default("prepared"),
    /** `session` (a reset's handoff) or `agent_handoff` (one agent's brief to the next). */
    kind: text("kind").$type<HandoffRevisionKind>().notNull().default("session"),
    /** For kind `agent_handoff`: the brief as the source agent wrote it (redacted). */
    brief: jsonb("brief").$type<AgentBrief>(),
    createdBy: text("created_by").notNull(),
    threadId: uuid("thread_id").references(() => threads.id, { onDelete: "set null" }),
    sessionNumber: integer("session_number"),
    model: text("model"),
    profile: text("profile"),
    redactions: jsonb("redactions").$type<RedactionRecord[]>().notNull().default([]),
    /** Items the reset that wrote this revision left out to keep the brief within its bound. */
    dropped: jsonb("dropped").$type<DroppedRecord[]>().notNull().default([]),
    searchTsv: tsvector("search_tsv").generatedAlwaysAs(
      sql`to_tsvector('english'::regconfig, left(markdown, ${sql.raw(String(SEARCH_TEXT_CHARS))}))`,
    ),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("handoff_revisions_handoff_revision_uq").on(t.handoffId, t.revision),
    index("handoff_revisions_search_idx").using("gin", t.searchTsv),
  ],
);
export type HandoffRevision = Omit<typeof handoffRevisions.$inferSelect, "searchTsv">;
/** Every column but the search vector (see `messageColumns`). */
const { searchTsv: _revisionSearch, ...handoffRevisionColumns } = getTableColumns(handoffRevisions);

export { handoffRevisionColumns };

/** Acceptance receipts: one per (content id, receiver), written with the acceptance itself. */
export const handoffReceipts = pgTable(
  "handoff_receipts",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    handoffId: uuid("handoff_id")
      .notNull()
      .references(() => handoffs.id, { onDelete: "cascade" }),
    contentId: text("content_id").notNull(),
    receiver: text("receiver").notNull(),
    revision: integer("revision").notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // Scoped by handoff: two owners' identical content (same key, revision, artifact) has one id.
  (t) => [
    uniqueIndex("handoff_receipts_handoff_content_receiver_uq").on(
      t.handoffId,
      t.contentId,
      t.receiver,
    ),
  ],
);
export type HandoffReceipt = typeof handoffReceipts.$inferSelect;

/** What a notice says; `handoff_kept_as`: a guest's handoff re-keyed when linking collided. */
export interface AccountNoticeData {
  kind: "handoff_kept_as";
  key: string;
  keptAs: string;
}

/**
 * One-shot notices for a user, shown on the next page load and then marked seen (account
 * linking writes them in the transaction that re-keys the guest's handoffs).
 */
export const accountNotices = pgTable(
  "account_notices",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    data: jsonb("data").$type<AccountNoticeData>().notNull(),
    createdAt: createdAt(),
    seenAt: timestamp("seen_at", { withTimezone: true }),
  },
  (t) => [index("account_notices_user_seen_idx").on(t.userId, t.seenAt)],
);
export type AccountNotice = typeof accountNotices.$inferSelect;

export type ApiTokenScope = "read" | "write" | "groom";

/** Personal API tokens for the handoff API and MCP; only a sha256 of the secret is stored. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    /** The first characters of the token, shown in lists so users can tell tokens apart. */
    prefix: text("prefix").notNull(),
    scopes: jsonb("scopes").$type<ApiTokenScope[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_tokens_user_idx").on(t.userId)],
);
export type ApiToken = typeof apiTokens.$inferSelect;

// ── Agent runtime: workspace files, plan, runs, tool grants ──

export type WorkspaceFileKind = "file" | "tool_result";
export type WorkspaceFileOp = "write" | "edit" | "delete";

/**
 * The current state of each (thread, path). A delete keeps the row (deleted_at set, content
 * emptied) so the version counter survives a re-create; the content lives on in the history.
 */
export const workspaceFiles = pgTable(
  "workspace_files",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    content: text("content").notNull(),
    /** UTF-8 bytes of content. */
    size: integer("size").notNull(),
    /** The latest version in workspace_file_versions, a delete included. */
    version: integer("version").notNull(),
    kind: text("kind").$type<WorkspaceFileKind>().notNull().default("file"),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("workspace_files_thread_path_uq").on(t.threadId, t.path)],
);
export type WorkspaceFile = typeof workspaceFiles.$inferSelect;

/** Every write, edit and delete of a workspace file, with the session and tool call that made it. */
export const workspaceFileVersions = pgTable(
  "workspace_file_versions",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    version: integer("version").notNull(),
    /** Null for a delete. */
    content: text("content"),
    size: integer("size").notNull().default(0),
    op: text("op").$type<WorkspaceFileOp>().notNull(),
    kind: text("kind").$type<WorkspaceFileKind>().notNull().default("file"),
    sessionId: uuid("session_id").references(() => sessions.id, { onDelete: "set null" }),
    runId: uuid("run_id").references(() => runs.id, { onDelete: "set null" }),
    toolCallId: text("tool_call_id"),
    searchTsv: tsvector("search_tsv").generatedAlwaysAs(
      sql`to_tsvector('english'::regconfig, left(path || ' ' || coalesce(content, ''), ${sql.raw(String(SEARCH_TEXT_CHARS))}))`,
    ),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("workspace_file_versions_thread_path_version_uq").on(t.threadId, t.path, t.version),
    index("workspace_file_versions_search_idx").using("gin", t.searchTsv),
    // files_modified of a handoff: the paths one session touched.
    index("workspace_file_versions_session_idx").on(t.sessionId),
  ],
);
export type WorkspaceFileVersion = Omit<typeof workspaceFileVersions.$inferSelect, "searchTsv">;
/** Every column but the search vector (see `messageColumns`). */
const { searchTsv: _versionSearch, ...workspaceFileVersionColumns } =
  getTableColumns(workspaceFileVersions);

export { workspaceFileVersionColumns };

/** One plan per thread, replaced whole by update_plan; version counts the replacements. */
export const threadPlans = pgTable("thread_plans", {
  threadId: uuid("thread_id")
    .primaryKey()
    .references(() => threads.id, { onDelete: "cascade" }),
  items: jsonb("items").$type<PlanItem[]>().notNull().default([]),
  version: integer("version").notNull().default(1),
  updatedAt: updatedAt(),
});
export type ThreadPlan = typeof threadPlans.$inferSelect;

export type RunStatus =
  | "running"
  | "completed"
  | "awaiting_approval"
  | "failed"
  | "stopped"
  /** The run used up its steps (the profile's max_steps). */
  | "step_limit"
  /** A reset the run needed could not help (failure_reason `thrash`). */
  | "reset_failed"
  /** Its server died while it streamed text; the user may Continue it (its message says so). */
  | "interrupted"
  /** Parked at a reset's draft under review (review `always`): resumed when the draft ends. */
  | "awaiting_review";

/** A run: one turn of model steps and tool calls, possibly spanning several sessions. */
export const runs = pgTable(
  "runs",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status").$type<RunStatus>().notNull().default("running"),
    /** The assistant message the run streams into (null until it has one). */
    messageId: text("message_id"),
    /** The user message the run answers: a live run claims it, so it is answered once. */
    requestMessageId: text("request_message_id"),
    /** The server instance running it; a running run whose instance is gone died with it. */
    instanceId: text("instance_id"),
    /**
     * The resumable stream the run is producing now (docs/streams.md): a new id for every request
     * that starts or continues the run. Live while the run is `running` on a live instance.
     */
    streamId: text("stream_id"),
    /**
     * For a stream that continues a stored assistant message (an approval answer or a continue):
     * that message, and how many parts it had when the stream began. A reader resuming the
     * stream gets the message cut to those parts and the stream appends the rest.
     */
    streamMessageId: text("stream_message_id"),
    streamBaseParts: integer("stream_base_parts").notNull().default(0),
    stepCount: integer("step_count").notNull().default(0),
    maxSteps: integer("max_steps").notNull(),
    /** Agent handoffs this run has made (each agent's maxHandoffDepth is checked against it). */
    handoffCount: integer("handoff_count").notNull().default(0),
    firstSessionId: uuid("first_session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    lastSessionId: uuid("last_session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** Every session the run spanned, in order (first … last). */
    sessionIds: jsonb("session_ids").$type<string[]>().notNull().default([]),
    failureReason: text("failure_reason"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  // Newest run first per thread. Plain ascending columns read backwards give `started_at desc`
  // with the default NULLS FIRST, which is what `order by started_at desc` asks for.
  (t) => [
    index("runs_thread_started_idx").on(t.threadId, t.startedAt),
    index("runs_request_idx").on(t.threadId, t.requestMessageId),
    index("runs_live_idx").on(t.status, t.instanceId),
    // The thread's running runs: its live streams (db/queries/live-streams.ts).
    index("runs_thread_running_idx")
      .on(t.threadId, t.startedAt)
      .where(sql`${t.status} = 'running'`),
  ],
);
export type Run = typeof runs.$inferSelect;

/**
 * A run's journal: its events in order (who handled what, tools, approvals, handoffs, resets),
 * each payload size-capped and redacted before it is stored (lib/agents/journal.ts).
 */
export const runEvents = pgTable(
  "run_events",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** The agent (profile slug) whose invocation the event belongs to. */
    agent: text("agent"),
    /** The invocation (one agent's stretch of the run) the event belongs to. */
    invocationId: text("invocation_id"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);
export type RunEvent = typeof runEvents.$inferSelect;

/**
 * One row per server process that ever opened the database. A live one refreshes its heartbeat
 * every couple of seconds; one whose heartbeat is old, or that a restart found dead, is gone —
 * and with it every lease and run it held (docs/architecture.md, "Crash recovery").
 */
export const serverInstances = pgTable("server_instances", {
  id: text("id").primaryKey(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().defaultNow(),
  /** Set when the instance stopped cleanly or was found dead. */
  stoppedAt: timestamp("stopped_at", { withTimezone: true }),
});
export type ServerInstance = typeof serverInstances.$inferSelect;

/** "Allow for this session": a grant ends with its session (resuming is not permission). */
export const toolGrants = pgTable(
  "tool_grants",
  {
    sessionId: uuid("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.tool] })],
);
export type ToolGrant = typeof toolGrants.$inferSelect;

// ── Handoff quality: pins, drafts under review, drafts written ahead ──

export type PinState = "pinned" | "unpinned";
/** Who pinned it: the user (a card), the agent (the pin tool) or a handoff that listed it. */
export type PinSource = "user" | "agent" | "handoff";

/**
 * The thread's pinned items: what every handoff carries in must_preserve, exactly. An unpinned
 * row stays (state `unpinned`) so that a model listing the item again does not bring it back.
 */
export const threadPins = pgTable(
  "thread_pins",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    /** Trimmed, spacing collapsed, lowercased: one row per pin text per thread. */
    normalized: text("normalized").notNull(),
    state: text("state").$type<PinState>().notNull().default("pinned"),
    source: text("source").$type<PinSource>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("thread_pins_thread_text_uq").on(t.threadId, t.normalized)],
);
export type ThreadPin = typeof threadPins.$inferSelect;

export type ResetDraftState = "awaiting_review" | "committed" | "cancelled" | "expired";

/** What a reset measured when its draft was written: the commit finishes that reset with it. */
export interface ResetDraftContext {
  modelId: string;
  profileId: string;
  contextTokens: number;
  contextWindow: number;
  utilization: number;
  /** Seq of the user message that moves into the new session with its run (threshold resets). */
  moveFromSeq: number | null;
  movedTokens: number;
  midRun: boolean;
  /** The run suspended at the draft (a threshold reset with review `always`). */
  runId: string | null;
  /** When the reset took its lease (the divider's duration counts from there). */
  startedAt: string;
  /** What the next session's tool definitions cost, for bounding the reviewed draft again. */
  toolTokens?: number;
}

/**
 * A handoff drafted for review (reset `{review: true}`, or a threshold reset under review
 * `always`): one per (thread, fromSession); committing it makes revision N, cancelling it (or
 * its expiry) leaves the thread in session N.
 */
export const resetDrafts = pgTable(
  "reset_drafts",
  {
    threadId: uuid("thread_id")
      .notNull()
      .references(() => threads.id, { onDelete: "cascade" }),
    fromSession: integer("from_session").notNull(),
    trigger: text("trigger").$type<SessionTrigger>().notNull(),
    state: text("state").$type<ResetDraftState>().notNull().default("awaiting_review"),
    /** The drafted handoff (validated, redacted and bounded like a committed one). */
    artifact: jsonb("artifact").$type<Record<string, unknown>>().notNull(),
    dropped: jsonb("dropped").$type<DroppedRecord[]>().notNull().default([]),
    redactions: jsonb("redactions").$type<RedactionRecord[]>().notNull().default([]),
    source: text("source").$type<ResetStats["source"]>().notNull(),
    writerTokens: integer("writer_tokens").notNull().default(0),
    context: jsonb("context").$type<ResetDraftContext>().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.threadId, t.fromSession] }),
    index("reset_drafts_waiting_idx").on(t.expiresAt).where(sql`state = 'awaiting_review'`),
  ],
);
export type ResetDraft = typeof resetDrafts.$inferSelect;

/**
 * The next handoff of a session, written by the model in the background once the session
 * passed its profile's draft threshold; a reset merges what happened after `throughSeq` into it
 * mechanically instead of waiting for the model.
 */
export const aheadDrafts = pgTable("ahead_drafts", {
  sessionId: uuid("session_id")
    .primaryKey()
    .references(() => sessions.id, { onDelete: "cascade" }),
  threadId: uuid("thread_id")
    .notNull()
    .references(() => threads.id, { onDelete: "cascade" }),
  artifact: jsonb("artifact").$type<Record<string, unknown>>().notNull(),
  source: text("source").$type<ResetStats["source"]>().notNull(),
  writerTokens: integer("writer_tokens").notNull().default(0),
  /** The highest message seq the model saw when it wrote the draft. */
  throughSeq: integer("through_seq").notNull(),
  modelId: text("model_id").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
export type AheadDraft = typeof aheadDrafts.$inferSelect;

// ── Connections: outside MCP tool servers ──

/** Whether a server's bearer token can be used: none stored, stored, or sealed under an old secret. */
export type ToolServerTokenState = "none" | "stored" | "unreadable";

/** One tool a server listed, as stored at its last refresh. */
export interface ToolServerTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/**
 * A user's remote MCP tool server (Streamable HTTP). Its tools reach a profile that allows
 * `mcp:<slug>/<tool>` or `mcp:<slug>/*`. The bearer token is sealed (AES-GCM, key derived from
 * the auth secret) and never returned by an API.
 */
export const toolServers = pgTable(
  "tool_servers",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The server's name in allow-lists and tool names: lowercase letters, digits, dashes. */
    slug: text("slug").notNull(),
    url: text("url").notNull(),
    tokenSealed: text("token_sealed"),
    tokenState: text("token_state").$type<ToolServerTokenState>().notNull().default("none"),
    tools: jsonb("tools").$type<ToolServerTool[]>().notNull().default([]),
    /** Tools the user marked read-only: they run without approval. Kept across refreshes. */
    readOnlyTools: jsonb("read_only_tools").$type<string[]>().notNull().default([]),
    toolsFetchedAt: timestamp("tools_fetched_at", { withTimezone: true }),
    /** The last refresh's failure, shown in settings; null after a good one. */
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("tool_servers_user_slug_uq").on(t.userId, t.slug)],
);
export type ToolServer = typeof toolServers.$inferSelect;
