// The workspace's files and plan, read over the owner's API (`/api/threads/{id}/…`) or a share
// link's read-only copy of it (`/share/{token}/…`): both answer the same shapes, parsed here so
// a changed API fails loudly instead of rendering `undefined`.
import type { z } from "zod";
import { get } from "@/lib/api/client";
import {
  type FileResponse,
  type FilesResponse,
  fileResponseSchema,
  filesResponseSchema,
  type PlanResponse,
  planResponseSchema,
} from "@/lib/workspace/api-schemas";

/** Where a thread's workspace is read: `/api/threads/<id>` or `/share/<token>`. */
export type WorkspaceBase = string;

export function ownerWorkspaceBase(threadId: string): WorkspaceBase {
  return `/api/threads/${encodeURIComponent(threadId)}`;
}

export function sharedWorkspaceBase(token: string): WorkspaceBase {
  return `/share/${encodeURIComponent(token)}`;
}

function getJson<S extends z.ZodType>(url: string, schema: S, fallback: string) {
  return get(url, schema, { fallback });
}

/** The URL of one file (each path segment encoded), a version of it, or its download. */
export function fileUrl(
  base: WorkspaceBase,
  path: string,
  options: { version?: number; download?: boolean } = {},
): string {
  const encoded = path.split("/").map(encodeURIComponent).join("/");
  const params = new URLSearchParams();
  if (options.version !== undefined) params.set("version", String(options.version));
  if (options.download) params.set("download", "1");
  const query = params.size > 0 ? `?${params}` : "";
  return `${base}/files/${encoded}${query}`;
}

export function fetchFiles(base: WorkspaceBase): Promise<FilesResponse> {
  return getJson(`${base}/files`, filesResponseSchema, "Couldn't load the files.");
}

export function fetchFile(
  base: WorkspaceBase,
  path: string,
  version?: number,
): Promise<FileResponse> {
  return getJson(fileUrl(base, path, { version }), fileResponseSchema, "Couldn't open the file.");
}

export function fetchPlan(base: WorkspaceBase): Promise<PlanResponse> {
  return getJson(`${base}/plan`, planResponseSchema, "Couldn't load the plan.");
}
