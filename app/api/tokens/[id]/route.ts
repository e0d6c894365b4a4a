import { z } from "zod";
import { requireActor } from "@/lib/auth/server";
import { BatonError, errorResponse } from "@/lib/errors";
import { revokeToken } from "@/lib/handoff-api/tokens";

export const dynamic = "force-dynamic";

/** Revokes the token (204); it stops working at once. Unknown or another user's: 404. */
export async function DELETE(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const id = z.uuid().safeParse((await context.params).id);
    const actor = await requireActor(request);
    if (!id.success) throw new BatonError("not_found:token", "Token not found.");
    await revokeToken({ userId: actor.id, tokenId: id.data });
    return new Response(null, { status: 204 });
  } catch (error) {
    return errorResponse(error);
  }
}
