// Pages of a shared thread for its read-only list (older pages, or a session's first page):
// no session needed, the token is the capability.

import { parseThreadPageQuery } from "@/lib/chat/page-query";
import { loadSharedThreadView } from "@/lib/chat/share";
import { BatonError, errorResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ token: string }> }) {
  try {
    const page = parseThreadPageQuery(request);
    const { token } = await context.params;
    const view = await loadSharedThreadView({ token, ...page });
    if (!view) throw new BatonError("not_found:share", "This link does not exist or was revoked.");
    return Response.json(view, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
