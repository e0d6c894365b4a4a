import { z } from "zod";
import { requireActor } from "@/lib/auth/server";
import { type ThreadRouteContext, threadIdParam } from "@/lib/chat/thread-param";
import { cancelThreadReset } from "@/lib/context/manual-reset";
import { errorResponse, readJson } from "@/lib/errors";

export const dynamic = "force-dynamic";

const bodySchema = z.object({ fromSession: z.number().int().min(1) }).strict();

export async function POST(request: Request, context: ThreadRouteContext) {
  try {
    const body = bodySchema.parse(await readJson(request));
    const actor = await requireActor(request);
    const threadId = await threadIdParam(context);
    return Response.json(await cancelThreadReset({ userId: actor.id, threadId, ...body }));
  } catch (error) {
    return errorResponse(error);
  }
}
