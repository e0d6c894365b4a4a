// One workspace file: its current version or `?version=N`, with its history; `?download=1`
// serves the content as a text/plain attachment (never rendered on this origin). Owner only.
import { z } from "zod";
import { threadNotFound } from "@/lib/chat/thread-param";
import { route } from "@/lib/http/route";
import { downloadResponse, loadFileView, pathFromSegments } from "@/lib/workspace/api";
import { fileQuerySchema } from "@/lib/workspace/api-schemas";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({ id: z.uuid(), path: z.array(z.string()).min(1) });

export const GET = route(
  { auth: "session", params: paramsSchema, paramsError: threadNotFound, query: fileQuerySchema },
  async ({ actor, params, query }) => {
    const view = await loadFileView({
      userId: actor.id,
      threadId: params.id,
      path: pathFromSegments(params.path),
      version: query.version,
    });
    return query.download ? downloadResponse(view) : Response.json(view);
  },
);
