import { z } from "zod";
import { requireActor } from "@/lib/auth/server";
import { createShareLink, revokeShareLink, sharePath } from "@/lib/chat/share";
import { BatonError, errorResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

async function threadId(context: Context): Promise<string> {
  const parsed = z.uuid().safeParse((await context.params).id);
  // A malformed id names no thread of anyone's: answer exactly as for another user's thread.
  if (!parsed.success) throw new BatonError("not_found:thread", "Thread not found.");
  return parsed.data;
}

/** Shares the thread read-only: 201 with a new link, 200 with the link it already had. */
export async function POST(request: Request, context: Context) {
  try {
    const actor = await requireActor(request);
    const link = await createShareLink({ userId: actor.id, threadId: await threadId(context) });
    const url = new URL(sharePath(link.token), request.url).toString();
    return Response.json({ token: link.token, url }, { status: link.created ? 201 : 200 });
  } catch (error) {
    return errorResponse(error);
  }
}

/** Revokes the link: it answers 404 from now on; sharing again makes a new one. */
export async function DELETE(request: Request, context: Context) {
  try {
    const actor = await requireActor(request);
    await revokeShareLink({ userId: actor.id, threadId: await threadId(context) });
    return new Response(null, { status: 204 });
  } catch (error) {
    return errorResponse(error);
  }
}
