// The handoff write service (docs/handoffs.md): the redaction choke point every write to the
// handoff tables passes, then the store's upsert or acceptance in the caller's transaction.
import "server-only";
import { BatonError } from "@/core/errors";
import type { Tx } from "@/db/executor";
import {
  type HandoffWriteResult,
  recordAcceptance,
  type StoredHandoffWrite,
  storeHandoffWrite,
} from "@/db/queries/handoff-writes";
import {
  type CommitResetInput,
  type CommitResetResult,
  commitReset,
  resetHandoffEnvelope,
} from "@/db/queries/reset-commit";
import type { RedactionRecord } from "@/db/schema";
import { redactBrief } from "./agent-brief";
import { HANDOFF_SCHEMA_VERSION, type HandoffArtifact } from "./artifact";
import { contentId as contentIdOf } from "./content-id";
import { renderHandoffMarkdown } from "./markdown";
import { redactArtifact, redactText } from "./redact";

export interface HandoffWrite extends Omit<StoredHandoffWrite, "artifact"> {
  artifact: HandoffArtifact;
}

function redactedField(
  field: string,
  value: string | null | undefined,
  report: RedactionRecord[],
): string | null | undefined {
  if (value === undefined || value === null) return value;
  const { text, kinds } = redactText(value);
  for (const kind of kinds) report.push({ kind, field });
  return text;
}

/**
 * Masks every free-text field of a write, whatever its caller already did, so no path (a reset,
 * the API, MCP, one added later) can store a secret. Callers redact first and usually nothing
 * changes here; when something does, the markdown is rendered again from the redacted artifact
 * and the content id is computed over what is stored, never over the secret. The key addresses
 * the record and cannot be masked, so a key that holds a secret is refused.
 */
function redactHandoffWrite(input: HandoffWrite): HandoffWrite {
  if (redactText(input.key).kinds.length > 0) {
    throw new BatonError("bad_request:key", "This key looks like a secret.", {
      key: ["This key looks like a secret."],
    });
  }
  const { artifact, redactions } = redactArtifact(input.artifact);
  const report: RedactionRecord[] = [...redactions];
  const artifactChanged = redactions.length > 0;
  // Markdown rendered from the artifact is rendered again from the masked one: masking it as one
  // text would read list items and headings run together as `key: value` pairs.
  const rendered = input.markdown === renderHandoffMarkdown(input.artifact);
  const markdown = rendered
    ? artifactChanged
      ? renderHandoffMarkdown(artifact)
      : input.markdown
    : (redactedField("markdown", input.markdown, report) ?? "");
  const brief = input.brief ? redactBrief(input.brief) : null;
  if (brief) report.push(...brief.redactions);
  const envelope = {
    project: redactedField("project", input.project, report),
    repo: redactedField("repo", input.repo, report),
    kind: redactedField("kind", input.kind, report) ?? undefined,
    model: redactedField("model", input.model, report),
    profile: redactedField("profile", input.profile, report),
    createdBy: redactedField("created_by", input.createdBy, report) ?? input.createdBy,
  };
  if (report.length === 0) return input;
  const known = new Set(input.redactions.map((r) => `${r.field}\u0000${r.kind}`));
  const added = report.filter((r) => !known.has(`${r.field}\u0000${r.kind}`));
  return {
    ...input,
    ...envelope,
    artifact,
    markdown,
    brief: brief?.brief ?? null,
    contentIdFor: artifactChanged
      ? (revision) =>
          contentIdOf({
            schema_version: HANDOFF_SCHEMA_VERSION,
            handoff_key: input.key,
            revision,
            artifact,
          })
      : input.contentIdFor,
    redactions: [...input.redactions, ...added],
  };
}

/** A receiver names who accepted (`session:<id>`, a tool's name); never a credential. */
export function redactedReceiver(receiver: string): string {
  return redactText(receiver).text;
}

/** The retry-safe upsert of a redacted write, inside the caller's transaction. */
export function writeHandoff(tx: Tx, write: HandoffWrite): Promise<HandoffWriteResult> {
  return storeHandoffWrite(tx, redactHandoffWrite(write));
}

/** Idempotent acceptance under a masked receiver, inside the caller's transaction. */
export function acceptHandoff(
  tx: Tx,
  input: { ownerId: string; key: string; contentId: string; receiver: string },
): ReturnType<typeof recordAcceptance> {
  return recordAcceptance(tx, { ...input, receiver: redactedReceiver(input.receiver) });
}

/**
 * A reset's commit with its handoff redacted first: the handoff is revision N of the thread's
 * own key (the thread id), written from session N.
 */
export function commitResetHandoff(
  input: Omit<CommitResetInput, "handoff"> & {
    handoff: Omit<HandoffWrite, "ownerId" | "key" | "revision" | "threadId" | "sessionNumber">;
  },
): Promise<CommitResetResult> {
  const handoff = redactHandoffWrite({ ...input.handoff, ...resetHandoffEnvelope(input) });
  return commitReset({ ...input, handoff });
}
