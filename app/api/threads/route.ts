import { z } from "zod";
import { listThreads } from "@/db/queries/threads";
import { requireActor } from "@/lib/auth/server";
import { publicThread } from "@/lib/chat/thread-view";
import { errorResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(30),
  cursor: z
    .string()
    .regex(/^[^|]+\|[0-9a-f-]{36}$/, "Use the nextCursor value of the previous page.")
    .optional(),
});

export async function GET(request: Request) {
  try {
    const url = new URL(request.url);
    const query = querySchema.parse(Object.fromEntries(url.searchParams));
    const actor = await requireActor(request);
    const [updatedAt = "", id = ""] = query.cursor?.split("|") ?? [];
    const page = await listThreads({
      userId: actor.id,
      limit: query.limit,
      cursor: query.cursor ? { updatedAt, id } : undefined,
    });
    return Response.json({
      threads: page.threads.map(publicThread),
      nextCursor: page.nextCursor ? `${page.nextCursor.updatedAt}|${page.nextCursor.id}` : null,
    });
  } catch (error) {
    return errorResponse(error);
  }
}
