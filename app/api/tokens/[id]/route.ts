import { z } from "zod";
import { BatonError } from "@/core/errors";
import { revokeUserApiToken } from "@/lib/handoff-api/api-tokens";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Revokes the token (204); it stops working at once. Unknown or another user's: 404. */
export const DELETE = route(
  {
    auth: "session",
    params: z.object({ id: z.uuid() }),
    paramsError: () => new BatonError("not_found:token", "Token not found."),
  },
  async ({ actor, params }) => {
    await revokeUserApiToken({ userId: actor.id, tokenId: params.id });
    return new Response(null, { status: 204 });
  },
);
