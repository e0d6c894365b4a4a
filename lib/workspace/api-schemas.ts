// Response shapes of the files and plan API (`GET /api/threads/{id}/files`, `…/files/{path}`,
// `…/plan`). Handlers parse what they return with these, and the client parses with them too.
import { z } from "zod";
import { planItemSchema } from "@/core/plan-items";

const isoDate = z.string();

const fileEntrySchema = z.object({
  path: z.string(),
  bytes: z.number().int(),
  version: z.number().int(),
  updatedAt: isoDate,
});
export type FileEntry = z.infer<typeof fileEntrySchema>;

/** `GET /api/threads/{id}/files`: the workspace, with spilled tool results listed apart. */
export const filesResponseSchema = z.object({
  files: z.array(fileEntrySchema),
  toolResults: z.array(fileEntrySchema),
});
export type FilesResponse = z.infer<typeof filesResponseSchema>;

const fileVersionEntrySchema = z.object({
  version: z.number().int(),
  op: z.enum(["write", "edit", "delete"]),
  bytes: z.number().int(),
  sessionId: z.string().nullable(),
  runId: z.string().nullable(),
  createdAt: isoDate,
});
export type FileVersionEntry = z.infer<typeof fileVersionEntrySchema>;

/**
 * `GET /api/threads/{id}/files/{path}` (current version) or `?version=N` (that version), with
 * the path's whole history (newest first). A deleted file, or the delete version itself, has
 * `deleted: true` and `content: null`; its earlier versions stay readable. `?download=1` serves
 * the content instead, as a `text/plain` attachment.
 */
export const fileResponseSchema = z.object({
  file: z.object({
    path: z.string(),
    kind: z.enum(["file", "tool_result"]),
    version: z.number().int(),
    /** The newest version of the path (a delete included). */
    latestVersion: z.number().int(),
    deleted: z.boolean(),
    bytes: z.number().int(),
    content: z.string().nullable(),
    updatedAt: isoDate,
  }),
  versions: z.array(fileVersionEntrySchema),
});
export type FileResponse = z.infer<typeof fileResponseSchema>;

/** `GET /api/threads/{id}/plan`: `version` 0 and `updatedAt` null before the first update. */
export const planResponseSchema = z.object({
  items: z.array(planItemSchema),
  version: z.number().int(),
  updatedAt: isoDate.nullable(),
});
export type PlanResponse = z.infer<typeof planResponseSchema>;

/** Query of `…/files/{path}`. */
export const fileQuerySchema = z.object({
  version: z.coerce.number().int().min(1).optional(),
  download: z.enum(["1", "true"]).optional(),
});
