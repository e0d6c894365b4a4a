// The `[id]` segment of /api/threads/{id}/… routes. A malformed id names nobody's thread, so it
// answers exactly as another user's thread does: 404, revealing nothing.
import { z } from "zod";
import { BatonError } from "@/lib/errors";

export type ThreadRouteContext = { params: Promise<{ id: string }> };

const idSchema = z.uuid();

export function threadNotFound(): BatonError {
  return new BatonError("not_found:thread", "Thread not found.");
}

export async function threadIdParam(context: ThreadRouteContext): Promise<string> {
  const parsed = idSchema.safeParse((await context.params).id);
  if (!parsed.success) throw threadNotFound();
  return parsed.data;
}
