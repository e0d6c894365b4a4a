import { z } from "zod";
import { deleteThread, updateThread } from "@/db/queries/threads";
import { requireActor } from "@/lib/auth/server";
import { parseThreadPageQuery } from "@/lib/chat/page-query";
import { type ThreadRouteContext, threadIdParam, threadNotFound } from "@/lib/chat/thread-param";
import { loadThreadView, publicThread } from "@/lib/chat/thread-view";
import { errorResponse, readJson } from "@/lib/errors";

export const dynamic = "force-dynamic";

const patchSchema = z.object({ title: z.string().trim().min(1).max(200) }).strict();

export async function GET(request: Request, context: ThreadRouteContext) {
  try {
    const page = parseThreadPageQuery(request);
    const actor = await requireActor(request);
    const view = await loadThreadView({
      userId: actor.id,
      threadId: await threadIdParam(context),
      ...page,
    });
    if (!view) throw threadNotFound();
    return Response.json(view);
  } catch (error) {
    return errorResponse(error);
  }
}

export async function PATCH(request: Request, context: ThreadRouteContext) {
  try {
    const body = patchSchema.parse(await readJson(request));
    const actor = await requireActor(request);
    const thread = await updateThread({
      userId: actor.id,
      threadId: await threadIdParam(context),
      ...body,
    });
    if (!thread) throw threadNotFound();
    return Response.json({ thread: publicThread(thread) });
  } catch (error) {
    return errorResponse(error);
  }
}

export async function DELETE(request: Request, context: ThreadRouteContext) {
  try {
    const actor = await requireActor(request);
    const deleted = await deleteThread({
      userId: actor.id,
      threadId: await threadIdParam(context),
    });
    if (!deleted) throw threadNotFound();
    return new Response(null, { status: 204 });
  } catch (error) {
    return errorResponse(error);
  }
}
