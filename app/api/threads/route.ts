import { z } from "zod";
import { listThreads } from "@/db/queries/threads";
import { publicThread } from "@/lib/chat/thread-view";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** `<ISO updatedAt>|<thread id>`, as the previous page's nextCursor gave it. */
const cursorSchema = z
  .string()
  .regex(/^[^|]+\|[0-9a-f-]{36}$/, "Use the nextCursor value of the previous page.")
  .transform((cursor, ctx) => {
    const [updatedAt = "", id = ""] = cursor.split("|");
    if (Number.isNaN(Date.parse(updatedAt)) || !z.uuid().safeParse(id).success) {
      ctx.addIssue({ code: "custom", message: "Use the nextCursor value of the previous page." });
      return z.NEVER;
    }
    return { updatedAt: new Date(updatedAt).toISOString(), id };
  });

const querySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(30),
  cursor: cursorSchema.optional(),
  /** Search: threads whose title contains these words as typed (case-insensitive). */
  q: z.string().trim().max(100, "Search for at most 100 characters.").optional(),
});

export const GET = route({ auth: "session", query: querySchema }, async ({ actor, query }) => {
  const page = await listThreads({
    userId: actor.id,
    limit: query.limit,
    cursor: query.cursor,
    titleContains: query.q || undefined,
  });
  return Response.json({
    threads: page.threads.map(publicThread),
    nextCursor: page.nextCursor ? `${page.nextCursor.updatedAt}|${page.nextCursor.id}` : null,
  });
});
