// The handoff API's operations for one identity (docs/handoffs.md): the retry-safe upsert,
// reads, pages, accept, cancel and delete. Every write is redacted; every answer is parsed into
// its schema.
import "server-only";
import { BatonError } from "@/core/errors";
import { deleteHandoffByKey } from "@/db/queries/handoff-groom";
import {
  getHandoffWithRevision,
  type HandoffPageCursor,
  listHandoffPage,
} from "@/db/queries/handoff-reads";
import type { Handoff, HandoffRevision, HandoffState, RedactionRecord } from "@/db/schema";
import { contentIdsFor } from "@/lib/handoff/content-id";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { redactArtifact, redactText } from "@/lib/handoff/redact";
import { countHandoff } from "@/lib/metrics";
import { type ApiIdentity, requireScope } from "./identity";
import type { OpenHandoff } from "./open-handoff";
import { acceptApiHandoff, cancelApiHandoff, writeApiHandoff } from "./policy";
import {
  DEFAULT_API_KIND,
  type HandoffPage,
  type HandoffRecord,
  handoffRecordSchema,
  type Receipt,
  receiptSchema,
  SESSION_KIND,
  type UpsertBody,
} from "./schemas";

/**
 * The record as the API shows it: the envelope of the key (project, repo, kind) with one
 * revision's content. `updated_at` is the record's for its current revision, and the revision's
 * own creation time for older ones.
 */
export function handoffRecord(handoff: Handoff, revision: HandoffRevision): HandoffRecord {
  const isCurrent = revision.revision === handoff.revision;
  return handoffRecordSchema.parse({
    key: handoff.handoffKey,
    revision: revision.revision,
    id: revision.contentId,
    state: revision.state,
    project: handoff.project,
    repo: handoff.repo,
    kind: handoff.kind,
    created_by: revision.createdBy,
    created_at: revision.createdAt.toISOString(),
    updated_at: (isCurrent ? handoff.updatedAt : revision.createdAt).toISOString(),
    thread_id: revision.threadId,
    session_number: revision.sessionNumber,
    model: revision.model,
    profile: revision.profile,
    redactions: revision.redactions,
    dropped: revision.dropped,
    artifact: revision.artifact,
    markdown: revision.markdown,
    revision_kind: revision.kind,
    brief: revision.brief ?? null,
  });
}

function redactEnvelopeField(
  field: "project" | "repo",
  value: string | null | undefined,
  redactions: RedactionRecord[],
): string | null | undefined {
  if (value === undefined || value === null) return value;
  const { text, kinds } = redactText(value);
  for (const kind of kinds) redactions.push({ kind, field });
  return text;
}

/**
 * Stores a revision (201) or recognises a retry of one already stored (200, answered with that
 * revision as stored). Lower or conflicting revisions throw `conflict:stale_revision`.
 */
export async function upsertHandoff(
  identity: ApiIdentity,
  body: UpsertBody,
): Promise<{ created: boolean; record: HandoffRecord }> {
  requireScope(identity, "write");
  const { artifact, redactions } = redactArtifact(body.artifact);
  const envelopeRedactions: RedactionRecord[] = [];
  const project = redactEnvelopeField("project", body.project, envelopeRedactions);
  const repo = redactEnvelopeField("repo", body.repo, envelopeRedactions);
  const writing = writeApiHandoff({
    ownerId: identity.userId,
    key: body.key,
    revision: body.revision,
    artifact,
    // Text sent as markdown that is not the card's format is kept as it was written (redacted).
    markdown: body.markdown ?? renderHandoffMarkdown(artifact),
    // Over the redacted artifact: the id names what is stored, and a retry redacts the same way.
    contentIdFor: contentIdsFor(body.key, artifact),
    createdBy: identity.createdBy,
    project,
    repo,
    kind: body.kind,
    defaultKind: DEFAULT_API_KIND,
    reservedKind: SESSION_KIND,
    redactions: [...redactions, ...envelopeRedactions],
  });
  const result = await countHandoff("upsert", writing, (written) => written.outcome);
  return {
    created: result.outcome === "stored",
    record: handoffRecord(result.handoff, result.revision),
  };
}

export async function readHandoff(
  identity: ApiIdentity,
  { key, revision }: { key: string; revision?: number },
): Promise<HandoffRecord> {
  requireScope(identity, "read");
  const row = await getHandoffWithRevision({ ownerId: identity.userId, key, revision });
  if (!row) {
    throw new BatonError(
      "not_found:handoff",
      revision === undefined ? "Handoff not found." : `Handoff revision ${revision} not found.`,
    );
  }
  return handoffRecord(row.handoff, row.revision);
}

/** The cursor is opaque to clients: base64url of the exact keyset position. */
export function encodeCursor(cursor: HandoffPageCursor): string {
  return Buffer.from(JSON.stringify([cursor.updatedAt, cursor.id])).toString("base64url");
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A microsecond timestamp whose fields are all in range (2024-02-30 parses, but is no time). */
function isCursorTime(text: string): boolean {
  if (!CURSOR_TIME.test(text) || text.startsWith("0000")) return false;
  const millis = `${text.slice(0, 23)}Z`;
  const date = new Date(millis);
  return !Number.isNaN(date.getTime()) && date.toISOString() === millis;
}

function decodeCursor(raw: string): HandoffPageCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      isCursorTime(value[0]) &&
      typeof value[1] === "string" &&
      UUID.test(value[1])
    ) {
      return { updatedAt: value[0], id: value[1] };
    }
  } catch {
    // Not base64 JSON: the same answer as a well-formed but foreign cursor.
  }
  throw new BatonError("bad_request:cursor", "Use the next_cursor value of the previous page.");
}

export async function listHandoffs(
  identity: ApiIdentity,
  query: {
    project?: string;
    repo?: string;
    state?: HandoffState;
    cursor?: string;
    limit: number;
  },
): Promise<HandoffPage> {
  requireScope(identity, "read");
  const page = await listHandoffPage({
    ownerId: identity.userId,
    project: query.project,
    repo: query.repo,
    state: query.state,
    cursor: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    limit: query.limit,
  });
  return {
    handoffs: page.rows.map((r) => handoffRecord(r.handoff, r.revision)),
    next_cursor: page.nextCursor ? encodeCursor(page.nextCursor) : null,
  };
}

/** Removes the record and its whole history; tokens need the `groom` scope. */
export async function deleteHandoff(identity: ApiIdentity, key: string): Promise<void> {
  requireScope(identity, "groom");
  const deleted = await deleteHandoffByKey({ ownerId: identity.userId, key });
  if (!deleted) throw new BatonError("not_found:handoff", "Handoff not found.");
}

export async function acceptHandoffByKey(
  identity: ApiIdentity,
  { key, id, receiver }: { key: string; id: string; receiver: string },
): Promise<{ created: boolean; receipt: Receipt }> {
  requireScope(identity, "write");
  const { receipt, created } = await countHandoff(
    "accept",
    acceptApiHandoff({ ownerId: identity.userId, key, contentId: id, receiver }),
    (accepted) => (accepted.created ? "stored" : "duplicate"),
  );
  return {
    created,
    receipt: receiptSchema.parse({
      key,
      id: receipt.contentId,
      revision: receipt.revision,
      receiver: receipt.receiver,
      accepted_at: receipt.acceptedAt.toISOString(),
    }),
  };
}

export async function cancelHandoffByKey(
  identity: ApiIdentity,
  { key, id }: { key: string; id?: string },
): Promise<HandoffRecord> {
  requireScope(identity, "write");
  const cancelling = cancelApiHandoff({ ownerId: identity.userId, key, contentId: id });
  const row = await countHandoff("cancel", cancelling, (r) => (r ? "ok" : "not_found"));
  if (!row) throw new BatonError("not_found:handoff", "Handoff not found.");
  return handoffRecord(row.handoff, row.revision);
}

/** The user's open (`prepared`) handoffs, newest first: what the home page offers to continue. */
export async function listOpenHandoffs({
  userId,
  limit,
}: {
  userId: string;
  limit: number;
}): Promise<OpenHandoff[]> {
  const page = await listHandoffPage({ ownerId: userId, state: "prepared", limit });
  return page.rows.map(({ handoff, revision }) => {
    const record = handoffRecord(handoff, revision);
    return {
      key: record.key,
      id: record.id,
      goal: record.artifact.goal,
      stateSummary: record.artifact.state_summary,
      updatedAt: record.updated_at,
    };
  });
}
