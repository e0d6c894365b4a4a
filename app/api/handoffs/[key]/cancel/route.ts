import { cancelHandoffByKey } from "@/lib/handoff-api/handoffs";
import { invalidKey, keyParamsSchema } from "@/lib/handoff-api/request";
import { cancelBodySchema } from "@/lib/handoff-api/schemas";
import { optionalBody, route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Cancels the current revision (or, with `{id}`, only if it is still current); idempotent. */
export const POST = route(
  {
    auth: "api:write",
    params: keyParamsSchema,
    paramsError: invalidKey,
    body: optionalBody(cancelBodySchema),
    rateLimit: "api",
  },
  async ({ identity, params, body }) =>
    Response.json(await cancelHandoffByKey(identity, { key: params.key, ...body })),
);
