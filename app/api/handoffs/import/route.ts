import { importHandoff } from "@/lib/handoff-api/exchange";
import { importBodySchema } from "@/lib/handoff-api/exchange-schemas";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** One handoff as markdown or an exported record: 201 stored, 200 already stored, 409 stale. */
export const POST = route(
  { auth: "api:write", body: importBodySchema, rateLimit: "api" },
  async ({ identity, body }) => {
    const { created, record } = await importHandoff(identity, body);
    return Response.json(record, { status: created ? 201 : 200 });
  },
);
