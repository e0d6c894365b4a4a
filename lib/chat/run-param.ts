// The `[id]` and `[runId]` segments of /api/threads/{id}/runs/{runId}/…. A malformed id names
// nobody's run, so it answers exactly as another user's run does: 404, revealing nothing.
import { z } from "zod";
import { BatonError } from "@/core/errors";

export const runParamsSchema = z.object({ id: z.uuid(), runId: z.uuid() });

export function runNotFound(): BatonError {
  return new BatonError("not_found:run", "Run not found.");
}
