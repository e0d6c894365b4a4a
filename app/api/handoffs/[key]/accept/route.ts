import { acceptHandoffByKey } from "@/lib/handoff-api/handoffs";
import { invalidKey, keyParamsSchema } from "@/lib/handoff-api/request";
import { acceptBodySchema } from "@/lib/handoff-api/schemas";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Idempotent: 201 with the receipt, 200 with the same receipt for every retry. */
export const POST = route(
  {
    auth: "api:write",
    params: keyParamsSchema,
    paramsError: invalidKey,
    body: acceptBodySchema,
    rateLimit: "api",
  },
  async ({ identity, params, body }) => {
    const { created, receipt } = await acceptHandoffByKey(identity, { key: params.key, ...body });
    return Response.json(receipt, { status: created ? 201 : 200 });
  },
);
