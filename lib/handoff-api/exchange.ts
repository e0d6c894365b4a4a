// Export a key's handoffs as JSON or Markdown, and import one handoff written either way. An
// import is an ordinary upsert: same rules, same retry safety, and — since the content id covers
// key, revision and artifact — an export imported under its key and revision keeps its id.
import "server-only";
import { BatonError, fieldErrorsOf } from "@/core/errors";
import { getCurrentHandoff, listHandoffRevisions } from "@/db/queries/handoff-reads";
import { HandoffMarkdownError, parseHandoffMarkdown } from "@/lib/handoff/markdown";
import {
  EXPORT_DOCUMENT_FORMAT,
  type ExportDocument,
  type ExportQuery,
  type ImportBody,
} from "./exchange-schemas";
import { handoffRecord, upsertHandoff } from "./handoffs";
import { type ApiIdentity, requireScope } from "./identity";
import { type HandoffRecord, SESSION_KIND, upsertBodySchema } from "./schemas";

async function exportedRecords(
  identity: ApiIdentity,
  { key, revision }: { key: string; revision?: number },
): Promise<HandoffRecord[]> {
  requireScope(identity, "read");
  const handoff = await getCurrentHandoff({ ownerId: identity.userId, key });
  if (!handoff) throw new BatonError("not_found:handoff", "Handoff not found.");
  const revisions = (await listHandoffRevisions({ ownerId: identity.userId, key }))
    .filter((r) => revision === undefined || r.revision === revision)
    .sort((a, b) => a.revision - b.revision);
  if (revisions.length === 0) {
    throw new BatonError("not_found:handoff", `Handoff revision ${revision} not found.`);
  }
  return revisions.map((r) => handoffRecord(handoff, r));
}

export async function exportJson(
  identity: ApiIdentity,
  query: Pick<ExportQuery, "key" | "revision">,
): Promise<ExportDocument> {
  const handoffs = await exportedRecords(identity, query);
  return { format: EXPORT_DOCUMENT_FORMAT, version: 1, key: query.key, handoffs };
}

/**
 * One revision: exactly its markdown (importable as it is). The whole history: each revision's
 * markdown under a comment line naming it, oldest first.
 */
export async function exportMarkdown(
  identity: ApiIdentity,
  query: Pick<ExportQuery, "key" | "revision">,
): Promise<string> {
  const records = await exportedRecords(identity, query);
  if (query.revision !== undefined) return records[0]?.markdown ?? "";
  return records
    .map((r) => `<!-- handoff ${r.key} revision ${r.revision} id ${r.id} -->\n\n${r.markdown}`)
    .join("\n");
}

function markdownArtifact(markdown: string) {
  try {
    return parseHandoffMarkdown(markdown);
  } catch (error) {
    const message =
      error instanceof HandoffMarkdownError
        ? error.message
        : "A section is over its limit of 20000 characters.";
    throw new BatonError("bad_request:body", message, { markdown: [message] });
  }
}

/** Stores the imported handoff like `POST /api/handoffs` would (201 stored, 200 duplicate). */
export async function importHandoff(
  identity: ApiIdentity,
  body: ImportBody,
): Promise<{ created: boolean; record: HandoffRecord }> {
  requireScope(identity, "write");
  const upsert =
    body.format === "markdown"
      ? {
          key: body.key,
          revision: body.revision,
          artifact: markdownArtifact(body.markdown),
          project: body.project,
          repo: body.repo,
          kind: body.kind,
        }
      : {
          key: body.key ?? body.handoff.key,
          revision: body.handoff.revision,
          artifact: body.handoff.artifact,
          project: body.handoff.project ?? undefined,
          repo: body.handoff.repo ?? undefined,
          // A conversation's own revisions come in as an ordinary handoff of the default kind.
          kind: body.handoff.kind === SESSION_KIND ? undefined : body.handoff.kind,
        };
  // Every rule of a direct write applies, e.g. to a record's reserved key or unusual kind.
  const parsed = upsertBodySchema.safeParse(upsert);
  if (!parsed.success) {
    const fields = fieldErrorsOf(parsed.error);
    if (fields.key) {
      throw new BatonError("bad_request:key", fields.key[0] ?? "Invalid handoff key.", fields);
    }
    throw new BatonError("bad_request:body", "The imported handoff is invalid.", fields);
  }
  return upsertHandoff(identity, parsed.data);
}
