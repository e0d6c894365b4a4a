import { deleteHandoff, readHandoff } from "@/lib/handoff-api/handoffs";
import { invalidKey, keyParamsSchema } from "@/lib/handoff-api/request";
import { getQuerySchema } from "@/lib/handoff-api/schemas";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

const handoff = { params: keyParamsSchema, paramsError: invalidKey, rateLimit: "api" } as const;

/** The current record, or `?revision=N` from its history. */
export const GET = route(
  { auth: "api:read", ...handoff, query: getQuerySchema },
  async ({ identity, params, query }) =>
    Response.json(await readHandoff(identity, { key: params.key, revision: query.revision })),
);

/** Removes the record and its history (204); tokens need the groom scope. */
export const DELETE = route({ auth: "api:groom", ...handoff }, async ({ identity, params }) => {
  await deleteHandoff(identity, params.key);
  return new Response(null, { status: 204 });
});
