import { listHandoffs, upsertHandoff } from "@/lib/handoff-api/handoffs";
import { listQuerySchema, upsertBodySchema } from "@/lib/handoff-api/schemas";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route(
  { auth: "api:read", query: listQuerySchema, rateLimit: "api" },
  async ({ identity, query }) => Response.json(await listHandoffs(identity, query)),
);

/** Upsert: 201 stored, 200 a retry of a stored revision (its original record), 409 stale. */
export const POST = route(
  { auth: "api:write", body: upsertBodySchema, rateLimit: "api" },
  async ({ identity, body }) => {
    const { created, record } = await upsertHandoff(identity, body);
    return Response.json(record, { status: created ? 201 : 200 });
  },
);
