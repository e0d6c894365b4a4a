// The workspace of a shared thread, read-only, for the share page's Files panel and plan: the
// same views as the owner's files and plan API, reached by the link's token alone, with file
// contents masked by the handoff redaction and no session or run id in a version's history.
import "server-only";
import { getSharedThreadByToken } from "@/db/queries/share";
import { redactText } from "@/lib/handoff/redact";
import { loadFilesView, loadFileView, loadPlanView } from "@/lib/workspace/api";
import type { FileResponse, FilesResponse, PlanResponse } from "@/lib/workspace/api-schemas";
import { shareNotFound, shareTokenSchema } from "./share";

/** The owner's scope for the thread a token opens; a 404 when it opens none. */
async function scopeOf(token: string): Promise<{ userId: string; threadId: string }> {
  if (!shareTokenSchema.safeParse(token).success) throw shareNotFound();
  const thread = await getSharedThreadByToken({ token });
  if (!thread) throw shareNotFound();
  return { userId: thread.userId, threadId: thread.id };
}

export async function loadSharedFilesView(token: string): Promise<FilesResponse> {
  return loadFilesView(await scopeOf(token));
}

export async function loadSharedFileView(
  token: string,
  path: string,
  version?: number,
): Promise<FileResponse> {
  const view = await loadFileView({ ...(await scopeOf(token)), path, version });
  return {
    file: {
      ...view.file,
      content: view.file.content === null ? null : redactText(view.file.content).text,
    },
    versions: view.versions.map((v) => ({ ...v, sessionId: null, runId: null })),
  };
}

export async function loadSharedPlanView(token: string): Promise<PlanResponse> {
  const plan = await loadPlanView(await scopeOf(token));
  return {
    ...plan,
    items: plan.items.map((item) => ({ ...item, task: redactText(item.task).text })),
  };
}
