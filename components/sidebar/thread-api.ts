// The sidebar's calls to the threads REST API: pages of thread summaries, rename and delete.
// Responses are parsed so a changed API fails loudly here instead of rendering `undefined`.
import { z } from "zod";
import { del, get, patch } from "@/lib/api/client";

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

export type ThreadSummaryPage = z.infer<typeof threadPageSchema>;

const THREADS_PER_PAGE = 30;

export async function fetchThreadSummaries(
  cursor: string | null,
  options: { query?: string; signal?: AbortSignal } = {},
): Promise<ThreadSummaryPage> {
  const params = new URLSearchParams({ limit: String(THREADS_PER_PAGE) });
  if (cursor) params.set("cursor", cursor);
  if (options.query) params.set("q", options.query);
  return get(`/api/threads?${params}`, threadPageSchema, {
    fallback: "Couldn't load conversations.",
    signal: options.signal,
  });
}

export async function renameThread(id: string, title: string): Promise<ThreadSummary> {
  const answer = await patch(
    `/api/threads/${encodeURIComponent(id)}`,
    { title },
    z.object({ thread: threadSummarySchema }),
    { fallback: "Couldn't rename the conversation." },
  );
  return answer.thread;
}

/** Resolves when the thread is gone, including when it was already deleted elsewhere (404). */
export function requestThreadDeletion(id: string): Promise<void> {
  return del(`/api/threads/${encodeURIComponent(id)}`, {
    acceptStatuses: [404],
    fallback: "Couldn't delete the conversation.",
  });
}

/** The display title: the stored one, or a placeholder for a blank title. */
export function threadLabel(thread: ThreadSummary): string {
  return thread.title.trim() || "Untitled";
}
