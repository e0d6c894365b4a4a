// Pages of a shared thread for its read-only list (older pages, a session's first page, or a
// stretch the reader scrolled into), opened by cursors handed out under the same link. No
// session needed: the token is the capability. A malformed token is a 404 like a revoked one;
// a malformed cursor, or one of another link, is a 400.
import { z } from "zod";
import { loadSharedThreadView, shareNotFound, shareTokenSchema } from "@/lib/chat/share";
import { sharePageQuerySchema } from "@/lib/chat/share-query";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route(
  {
    auth: "none",
    params: z.object({ token: shareTokenSchema }),
    paramsError: shareNotFound,
    query: sharePageQuerySchema,
  },
  async ({ params, query }) => {
    const view = await loadSharedThreadView({ token: params.token, ...query });
    if (!view) throw shareNotFound();
    return Response.json(view, { headers: { "Cache-Control": "no-store" } });
  },
);
