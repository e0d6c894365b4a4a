import { z } from "zod";
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { route } from "@/lib/http/route";
import { cancelThreadReset } from "@/lib/runs/reset-requests";

export const dynamic = "force-dynamic";

const bodySchema = z.object({ fromSession: z.number().int().min(1) }).strict();

export const POST = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound, body: bodySchema },
  async ({ actor, params, body }) =>
    Response.json(await cancelThreadReset({ userId: actor.id, threadId: params.id, ...body })),
);
