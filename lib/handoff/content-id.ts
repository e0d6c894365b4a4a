// RFC 8785 (JCS) canonical JSON and the handoff content id: sha256 hex of the canonical JSON of
// {schema_version, handoff_key, revision, artifact}, so any language can recompute it (see
// docs/handoffs.md).
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { HANDOFF_SCHEMA_VERSION, type HandoffArtifact } from "./artifact";

/**
 * Throws on what JCS cannot represent (undefined at the top level, NaN, Infinity, lone
 * surrogates, cycles) rather than hashing a lossy stand-in.
 */
export function canonicalJson(value: unknown): string {
  const json = canonicalize(value);
  if (json === undefined) throw new TypeError("canonicalJson: value has no JSON representation");
  return json;
}

export interface ContentIdInput {
  /** HANDOFF_SCHEMA_VERSION for artifacts written today. */
  schema_version: number;
  handoff_key: string;
  revision: number;
  artifact: HandoffArtifact;
}

export function contentId(input: ContentIdInput): string {
  // Picked explicitly so envelope fields riding along on the caller's object never change the id.
  const { schema_version, handoff_key, revision, artifact } = input;
  const json = canonicalJson({ schema_version, handoff_key, revision, artifact });
  return createHash("sha256").update(json, "utf8").digest("hex");
}

/** The content id of each revision of `key` holding `artifact` (what a handoff write needs). */
export function contentIdsFor(
  key: string,
  artifact: HandoffArtifact,
): (revision: number) => string {
  return (revision) =>
    contentId({ schema_version: HANDOFF_SCHEMA_VERSION, handoff_key: key, revision, artifact });
}
