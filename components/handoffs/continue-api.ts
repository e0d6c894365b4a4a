// The browser's call that starts a thread from a handoff. The thread id is chosen here, so a
// retried request (double click, dropped answer) finds the thread instead of making a second.
import { z } from "zod";

const errorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export class ContinueError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
    this.name = "ContinueError";
  }
}

export async function continueFromHandoff({
  key,
  id,
  threadId,
}: {
  key: string;
  id: string;
  threadId: string;
}): Promise<string> {
  const response = await fetch(`/api/handoffs/${encodeURIComponent(key)}/continue`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, threadId }),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = errorBodySchema.safeParse(body);
    throw parsed.success
      ? new ContinueError(parsed.data.error.message, parsed.data.error.code)
      : new ContinueError("Couldn't continue from that handoff.", null);
  }
  return z.object({ threadId: z.string() }).parse(body).threadId;
}
