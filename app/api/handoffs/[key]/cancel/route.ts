import { errorResponse } from "@/lib/errors";
import { cancelHandoffByKey } from "@/lib/handoff-api/handoffs";
import { requireApiIdentity } from "@/lib/handoff-api/identity";
import { keyParam, readOptionalJson } from "@/lib/handoff-api/request";
import { cancelBodySchema } from "@/lib/handoff-api/schemas";

export const dynamic = "force-dynamic";

/** Cancels the current revision (or, with `{id}`, only if it is still current); idempotent. */
export async function POST(request: Request, context: { params: Promise<{ key: string }> }) {
  try {
    const key = await keyParam(context);
    const body = cancelBodySchema.parse(await readOptionalJson(request));
    const identity = await requireApiIdentity(request, "write");
    return Response.json(await cancelHandoffByKey(identity, { key, ...body }));
  } catch (error) {
    return errorResponse(error);
  }
}
