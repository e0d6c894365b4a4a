// Export and import of handoffs (docs/handoffs.md): the export query and document, and the import
// body — one handoff, written as the card's markdown or as a record from an export.
import { z } from "zod";
import {
  handoffKeySchema,
  handoffRecordSchema,
  kindSchema,
  MARKDOWN_BODY_MAX,
  projectSchema,
  repoSchema,
  revisionSchema,
  storedKeySchema,
  strictArtifactSchema,
} from "./schemas";

const EXPORT_FORMATS = ["json", "markdown"] as const;
export const EXPORT_DOCUMENT_FORMAT = "baton.handoffs" as const;

export const exportQuerySchema = z.object({
  key: storedKeySchema,
  /** One revision; without it, the key's whole history. */
  revision: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  format: z.enum(EXPORT_FORMATS).default("json"),
});
export type ExportQuery = z.output<typeof exportQuerySchema>;

export const exportDocumentSchema = z
  .object({
    format: z.literal(EXPORT_DOCUMENT_FORMAT),
    version: z.literal(1),
    key: z.string(),
    handoffs: z.array(handoffRecordSchema).describe("The key's revisions, oldest first."),
  })
  .meta({
    title: "Baton handoff export",
    description: "GET /api/handoffs/export?format=json: one key's revisions as records.",
  });
export type ExportDocument = z.output<typeof exportDocumentSchema>;

/** A record as an export holds it; only its content and envelope matter to an import. */
const importedRecordSchema = z.object({
  key: storedKeySchema,
  revision: revisionSchema,
  artifact: strictArtifactSchema,
  project: z.string().nullable().optional(),
  repo: z.string().nullable().optional(),
  kind: z.string().optional(),
});

export const importBodySchema = z
  .discriminatedUnion("format", [
    z.strictObject({
      format: z.literal("markdown"),
      key: handoffKeySchema,
      revision: revisionSchema.optional(),
      markdown: z.string().min(1).max(MARKDOWN_BODY_MAX),
      project: projectSchema,
      repo: repoSchema,
      kind: kindSchema,
    }),
    z.strictObject({
      format: z.literal("json"),
      /** Another key to store it under (the record's own is the default). */
      key: handoffKeySchema.optional(),
      handoff: importedRecordSchema,
    }),
  ])
  .meta({
    title: "Baton handoff import",
    description:
      "POST /api/handoffs/import: one handoff as the card's markdown, or one record of an export.",
  });
export type ImportBody = z.output<typeof importBodySchema>;
