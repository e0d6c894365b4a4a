import { z } from "zod";
import { deleteThread, updateThread } from "@/db/queries/threads";
import { threadPageQuerySchema } from "@/lib/chat/page-query";
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { loadThreadView, publicThread } from "@/lib/chat/thread-view";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

const patchSchema = z.object({ title: z.string().trim().min(1).max(200) }).strict();
const thread = { params: threadParamsSchema, paramsError: threadNotFound } as const;

export const GET = route(
  { auth: "session", ...thread, query: threadPageQuerySchema },
  async ({ actor, params, query }) => {
    const view = await loadThreadView({ userId: actor.id, threadId: params.id, ...query });
    if (!view) throw threadNotFound();
    return Response.json(view);
  },
);

export const PATCH = route(
  { auth: "session", ...thread, body: patchSchema },
  async ({ actor, params, body }) => {
    const updated = await updateThread({ userId: actor.id, threadId: params.id, ...body });
    if (!updated) throw threadNotFound();
    return Response.json({ thread: publicThread(updated) });
  },
);

export const DELETE = route({ auth: "session", ...thread }, async ({ actor, params }) => {
  const deleted = await deleteThread({ userId: actor.id, threadId: params.id });
  if (!deleted) throw threadNotFound();
  return new Response(null, { status: 204 });
});
