import { z } from "zod";
import { requireActor } from "@/lib/auth/server";
import { cancelThreadReset } from "@/lib/context/manual-reset";
import { BatonError, errorResponse, readJson } from "@/lib/errors";

export const dynamic = "force-dynamic";

const bodySchema = z.object({ fromSession: z.number().int().min(1) }).strict();

export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const body = bodySchema.parse(await readJson(request));
    const actor = await requireActor(request);
    const id = z.uuid().safeParse((await context.params).id);
    if (!id.success) throw new BatonError("not_found:thread", "Thread not found.");
    return Response.json(await cancelThreadReset({ userId: actor.id, threadId: id.data, ...body }));
  } catch (error) {
    return errorResponse(error);
  }
}
