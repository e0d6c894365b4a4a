import { z } from "zod";
import { requireActor } from "@/lib/auth/server";
import { type ThreadRouteContext, threadIdParam } from "@/lib/chat/thread-param";
import { resetThreadManually } from "@/lib/context/manual-reset";
import { errorResponse, readJson } from "@/lib/errors";

export const dynamic = "force-dynamic";

const bodySchema = z.object({ fromSession: z.number().int().min(1) }).strict();

export async function POST(request: Request, context: ThreadRouteContext) {
  try {
    const body = bodySchema.parse(await readJson(request));
    const actor = await requireActor(request);
    const threadId = await threadIdParam(context);
    const result = await resetThreadManually({ userId: actor.id, threadId, ...body });
    const session = {
      id: result.session.id,
      number: result.session.number,
      model: result.session.model,
      profile: result.session.profile,
      trigger: result.session.trigger,
      startedAt: result.session.startedAt.toISOString(),
    };
    return Response.json(
      { session, handoff: result.handoff },
      { status: result.created ? 201 : 200 },
    );
  } catch (error) {
    return errorResponse(error);
  }
}
