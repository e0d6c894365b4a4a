import { errorResponse } from "@/lib/errors";
import { groomOwnHandoffs } from "@/lib/handoff-api/groom";
import { requireApiIdentity } from "@/lib/handoff-api/identity";

export const dynamic = "force-dynamic";

/** Deletes handoffs whose thread is gone or idle past BATON_HANDOFF_TTL_DAYS; says what and why. */
export async function POST(request: Request) {
  try {
    const identity = await requireApiIdentity(request, "groom");
    return Response.json(await groomOwnHandoffs(identity));
  } catch (error) {
    return errorResponse(error);
  }
}
