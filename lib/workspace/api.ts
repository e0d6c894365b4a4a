// The files and plan API behind `GET /api/threads/{id}/files…` and `…/plan`: owner-only reads
// of the workspace, parsed against the response schemas so no column leaks. Downloads are
// served as text/plain attachments with nosniff: a file the agent wrote (HTML included) must
// never render, let alone run, on the app's origin.
import "server-only";
import { BatonError } from "@/core/errors";
import { normalizePath } from "@/core/workspace/paths";
import { getDb } from "@/db/client";
import { getPlan } from "@/db/queries/plans";
import { getThread } from "@/db/queries/threads";
import {
  listFiles,
  listFileVersions,
  readFileVersion,
  type WorkspaceFileSummary,
} from "@/db/queries/workspace";
import { threadNotFound } from "@/lib/chat/thread-param";
import {
  type FileResponse,
  type FilesResponse,
  fileResponseSchema,
  filesResponseSchema,
  type PlanResponse,
  planResponseSchema,
} from "./api-schemas";

interface ThreadScope {
  userId: string;
  threadId: string;
}

function fileNotFound(): BatonError {
  return new BatonError("not_found:file", "File not found.");
}

async function requireThread(scope: ThreadScope): Promise<void> {
  if (!(await getThread(scope))) throw threadNotFound();
}

const entry = (f: WorkspaceFileSummary) => ({
  path: f.path,
  bytes: f.size,
  version: f.version,
  updatedAt: f.updatedAt.toISOString(),
});

export async function loadFilesView(scope: ThreadScope): Promise<FilesResponse> {
  await requireThread(scope);
  const rows = await listFiles(getDb(), { ...scope, kind: "all" });
  return filesResponseSchema.parse({
    files: rows.filter((r) => r.kind === "file").map(entry),
    toolResults: rows.filter((r) => r.kind === "tool_result").map(entry),
  });
}

/** The path from the URL's segments; anything that is not a valid workspace path names no file. */
export function pathFromSegments(segments: readonly string[]): string {
  const normalized = normalizePath(segments.join("/"));
  if (!normalized.ok) throw fileNotFound();
  return normalized.path;
}

/** A path's version (the newest when none is given) and its whole history. */
export async function loadFileView(
  scope: ThreadScope & { path: string; version?: number },
): Promise<FileResponse> {
  await requireThread(scope);
  const db = getDb();
  const versions = await listFileVersions(db, scope);
  const latest = versions[0];
  if (!latest) throw fileNotFound();
  const row = await readFileVersion(db, { ...scope, version: scope.version ?? latest.version });
  if (!row) throw fileNotFound();
  return fileResponseSchema.parse({
    file: {
      path: row.path,
      kind: row.kind,
      version: row.version,
      latestVersion: latest.version,
      deleted: row.content === null,
      bytes: row.size,
      content: row.content,
      updatedAt: row.createdAt.toISOString(),
    },
    versions: versions.map((v) => ({
      version: v.version,
      op: v.op,
      bytes: v.size,
      sessionId: v.sessionId,
      runId: v.runId,
      createdAt: v.createdAt.toISOString(),
    })),
  });
}

/** `filename="…"` keeps to safe ASCII; `filename*` carries the exact name (RFC 6266 / 5987). */
function contentDisposition(path: string): string {
  const name = path.split("/").at(-1) || "file.txt";
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function downloadResponse(view: FileResponse): Response {
  if (view.file.content === null) throw fileNotFound();
  return new Response(view.file.content, {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": contentDisposition(view.file.path),
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    },
  });
}

export async function loadPlanView(scope: ThreadScope): Promise<PlanResponse> {
  await requireThread(scope);
  const plan = await getPlan(getDb(), scope);
  return planResponseSchema.parse({
    items: plan?.items ?? [],
    version: plan?.version ?? 0,
    updatedAt: plan?.updatedAt.toISOString() ?? null,
  });
}
