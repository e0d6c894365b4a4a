import { z } from "zod";
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { runManualReset } from "@/lib/context/manual-reset";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

const bodySchema = z.object({ fromSession: z.number().int().min(1) }).strict();

export const POST = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound, body: bodySchema },
  async ({ actor, params, body }) => {
    const result = await runManualReset({ userId: actor.id, threadId: params.id, ...body });
    // Cancelled by the user: the outcome the cancel request already answered.
    if (result.cancelled)
      return Response.json({ cancelled: true, fromSession: result.fromSession });
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
  },
);
