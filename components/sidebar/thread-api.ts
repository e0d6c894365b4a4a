// The sidebar's calls to the threads REST API: pages of thread summaries, rename and delete.
// Responses are parsed so a changed API fails loudly here instead of rendering `undefined`.
import { z } from "zod";

const threadSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  model: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export type ThreadSummary = z.infer<typeof threadSummarySchema>;

const threadPageSchema = z.object({
  threads: z.array(threadSummarySchema),
  nextCursor: z.string().nullable(),
});

export type ThreadPage = z.infer<typeof threadPageSchema>;

const errorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const PAGE_SIZE = 30;

export class ThreadApiError extends Error {
  readonly status: number;
  readonly code: string | null;

  constructor(message: string, status: number, code: string | null) {
    super(message);
    this.name = "ThreadApiError";
    this.status = status;
    this.code = code;
  }
}

async function failure(response: Response, fallback: string): Promise<ThreadApiError> {
  const body: unknown = await response.json().catch(() => null);
  const parsed = errorBodySchema.safeParse(body);
  return parsed.success
    ? new ThreadApiError(parsed.data.error.message, response.status, parsed.data.error.code)
    : new ThreadApiError(fallback, response.status, null);
}

export async function fetchThreadPage(cursor: string | null): Promise<ThreadPage> {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) params.set("cursor", cursor);
  const response = await fetch(`/api/threads?${params}`, { cache: "no-store" });
  if (!response.ok) throw await failure(response, "Couldn't load conversations.");
  return threadPageSchema.parse(await response.json());
}

export async function renameThread(id: string, title: string): Promise<ThreadSummary> {
  const response = await fetch(`/api/threads/${encodeURIComponent(id)}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title }),
  });
  if (!response.ok) throw await failure(response, "Couldn't rename the conversation.");
  return z.object({ thread: threadSummarySchema }).parse(await response.json()).thread;
}

/** Resolves when the thread is gone, including when it was already deleted elsewhere (404). */
export async function deleteThread(id: string): Promise<void> {
  const response = await fetch(`/api/threads/${encodeURIComponent(id)}`, { method: "DELETE" });
  if (response.ok || response.status === 404) return;
  throw await failure(response, "Couldn't delete the conversation.");
}

/** The display title: the stored one, or a placeholder for a blank title. */
export function threadLabel(thread: ThreadSummary): string {
  return thread.title.trim() || "Untitled";
}
