// The `[id]` segment of /api/threads/{id}/… routes. A malformed id names nobody's thread, so it
// answers exactly as another user's thread does: 404, revealing nothing.
import { z } from "zod";
import { BatonError } from "@/core/errors";

export const threadParamsSchema = z.object({ id: z.uuid() });

export function threadNotFound(): BatonError {
  return new BatonError("not_found:thread", "Thread not found.");
}
