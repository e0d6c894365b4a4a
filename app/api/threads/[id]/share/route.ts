import { requireActor } from "@/lib/auth/server";
import { createShareLink, revokeShareLink, sharePath } from "@/lib/chat/share";
import { type ThreadRouteContext, threadIdParam } from "@/lib/chat/thread-param";
import { errorResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** Shares the thread read-only: 201 with a new link, 200 with the link it already had. */
export async function POST(request: Request, context: ThreadRouteContext) {
  try {
    const actor = await requireActor(request);
    const link = await createShareLink({
      userId: actor.id,
      threadId: await threadIdParam(context),
    });
    const url = new URL(sharePath(link.token), request.url).toString();
    return Response.json({ token: link.token, url }, { status: link.created ? 201 : 200 });
  } catch (error) {
    return errorResponse(error);
  }
}

/** Revokes the link: it answers 404 from now on; sharing again makes a new one. */
export async function DELETE(request: Request, context: ThreadRouteContext) {
  try {
    const actor = await requireActor(request);
    await revokeShareLink({ userId: actor.id, threadId: await threadIdParam(context) });
    return new Response(null, { status: 204 });
  } catch (error) {
    return errorResponse(error);
  }
}
