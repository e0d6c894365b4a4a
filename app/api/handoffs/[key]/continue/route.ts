import { continueFromHandoff } from "@/lib/handoff-api/continue";
import { invalidKey, keyParamsSchema } from "@/lib/handoff-api/request";
import { continueBodySchema } from "@/lib/handoff-api/schemas";
import { optionalBody, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Starts a thread from the handoff: 201 {threadId}; a retry with the same threadId, 200. */
export const POST = route(
  {
    auth: "api:write",
    params: keyParamsSchema,
    paramsError: invalidKey,
    body: optionalBody(continueBodySchema),
    rateLimit: "api",
  },
  async ({ identity, params, body }) => {
    const { threadId, created } = await continueFromHandoff(identity, { key: params.key, ...body });
    return Response.json({ threadId }, { status: created ? 201 : 200 });
  },
);
