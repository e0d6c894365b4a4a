import { errorResponse, readJson } from "@/lib/errors";
import { listHandoffs, upsertHandoff } from "@/lib/handoff-api/handoffs";
import { requireApiIdentity } from "@/lib/handoff-api/identity";
import { listQuerySchema, upsertBodySchema } from "@/lib/handoff-api/schemas";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  try {
    const query = listQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    const identity = await requireApiIdentity(request, "read");
    return Response.json(await listHandoffs(identity, query));
  } catch (error) {
    return errorResponse(error);
  }
}

/** Upsert: 201 stored, 200 a retry of a stored revision (its original record), 409 stale. */
export async function POST(request: Request) {
  try {
    const body = upsertBodySchema.parse(await readJson(request));
    const identity = await requireApiIdentity(request, "write");
    const { created, record } = await upsertHandoff(identity, body);
    return Response.json(record, { status: created ? 201 : 200 });
  } catch (error) {
    return errorResponse(error);
  }
}
