import { z } from "zod";
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { resetResponse } from "@/lib/context/reset-result";
import { route } from "@/lib/http/route";
import { runManualReset } from "@/lib/runs/reset-requests";

export const dynamic = "force-dynamic";

const bodySchema = z
  .object({ fromSession: z.number().int().min(1), review: z.boolean().optional() })
  .strict();

export const POST = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound, body: bodySchema },
  async ({ actor, params, body }) => {
    const result = await runManualReset({ userId: actor.id, threadId: params.id, ...body });
    // Cancelled by the user: the outcome the cancel request already answered.
    if (result.cancelled)
      return Response.json({ cancelled: true, fromSession: result.fromSession });
    // Drafted for review: nothing is committed until POST …/reset/commit.
    if (result.draft) return Response.json({ draft: result.draft }, { status: 202 });
    return resetResponse(result);
  },
);
