// Pages of a shared thread for its read-only list (older pages, or a session's first page):
// no session needed, the token is the capability.
import { z } from "zod";
import { loadSharedThreadView } from "@/lib/chat/share";
import { BatonError, errorResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

const pageSchema = z
  .object({
    beforeSeq: z.coerce.number().int().min(1).optional(),
    fromSeq: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .refine((page) => page.beforeSeq === undefined || page.fromSeq === undefined, {
    message: "Pass beforeSeq or fromSeq, not both.",
    path: ["fromSeq"],
  });

export async function GET(request: Request, context: { params: Promise<{ token: string }> }) {
  try {
    const page = pageSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
    const { token } = await context.params;
    const view = await loadSharedThreadView({ token, ...page });
    if (!view) throw new BatonError("not_found:share", "This link does not exist or was revoked.");
    return Response.json(view, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
