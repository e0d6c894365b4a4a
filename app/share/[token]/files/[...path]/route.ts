// One file of a shared thread's workspace, read-only: a version and its history, or
// `?download=1` as a text/plain attachment (never rendered on this origin).
import { z } from "zod";
import { shareNotFound, shareTokenSchema } from "@/lib/chat/share";
import { loadSharedFileView } from "@/lib/chat/share-workspace";
import { route } from "@/lib/http/route";
import { downloadResponse, pathFromSegments } from "@/lib/workspace/api";
import { fileQuerySchema } from "@/lib/workspace/api-schemas";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({ token: shareTokenSchema, path: z.array(z.string()).min(1) });

export const GET = route(
  { auth: "none", params: paramsSchema, paramsError: shareNotFound, query: fileQuerySchema },
  async ({ params, query }) => {
    const view = await loadSharedFileView(
      params.token,
      pathFromSegments(params.path),
      query.version,
    );
    if (query.download) return downloadResponse(view);
    return Response.json(view, { headers: { "Cache-Control": "no-store" } });
  },
);
