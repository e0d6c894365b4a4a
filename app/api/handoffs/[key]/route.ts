import { errorResponse } from "@/lib/errors";
import { deleteHandoff, readHandoff } from "@/lib/handoff-api/handoffs";
import { requireApiIdentity } from "@/lib/handoff-api/identity";
import { keyParam } from "@/lib/handoff-api/request";
import { getQuerySchema } from "@/lib/handoff-api/schemas";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ key: string }> };

/** The current record, or `?revision=N` from its history. */
export async function GET(request: Request, context: Context) {
  try {
    const key = await keyParam(context);
    const { revision } = getQuerySchema.parse(
      Object.fromEntries(new URL(request.url).searchParams),
    );
    const identity = await requireApiIdentity(request, "read");
    return Response.json(await readHandoff(identity, { key, revision }));
  } catch (error) {
    return errorResponse(error);
  }
}

/** Removes the record and its history (204); tokens need the groom scope. */
export async function DELETE(request: Request, context: Context) {
  try {
    const key = await keyParam(context);
    const identity = await requireApiIdentity(request, "groom");
    await deleteHandoff(identity, key);
    return new Response(null, { status: 204 });
  } catch (error) {
    return errorResponse(error);
  }
}
