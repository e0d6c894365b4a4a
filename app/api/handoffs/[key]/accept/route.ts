import { errorResponse, readJson } from "@/lib/errors";
import { acceptHandoffByKey } from "@/lib/handoff-api/handoffs";
import { requireApiIdentity } from "@/lib/handoff-api/identity";
import { keyParam } from "@/lib/handoff-api/request";
import { acceptBodySchema } from "@/lib/handoff-api/schemas";

export const dynamic = "force-dynamic";

/** Idempotent: 201 with the receipt, 200 with the same receipt for every retry. */
export async function POST(request: Request, context: { params: Promise<{ key: string }> }) {
  try {
    const key = await keyParam(context);
    const body = acceptBodySchema.parse(await readJson(request));
    const identity = await requireApiIdentity(request, "write");
    const { created, receipt } = await acceptHandoffByKey(identity, { key, ...body });
    return Response.json(receipt, { status: created ? 201 : 200 });
  } catch (error) {
    return errorResponse(error);
  }
}
