import { errorResponse } from "@/lib/errors";
import { continueFromHandoff } from "@/lib/handoff-api/continue";
import { requireApiIdentity } from "@/lib/handoff-api/identity";
import { keyParam, readOptionalJson } from "@/lib/handoff-api/request";
import { continueBodySchema } from "@/lib/handoff-api/schemas";

export const dynamic = "force-dynamic";

/** Starts a thread from the handoff: 201 {threadId}; a retry with the same threadId, 200. */
export async function POST(request: Request, context: { params: Promise<{ key: string }> }) {
  try {
    const key = await keyParam(context);
    const body = continueBodySchema.parse(await readOptionalJson(request));
    const identity = await requireApiIdentity(request, "write");
    const { threadId, created } = await continueFromHandoff(identity, { key, ...body });
    return Response.json({ threadId }, { status: created ? 201 : 200 });
  } catch (error) {
    return errorResponse(error);
  }
}
