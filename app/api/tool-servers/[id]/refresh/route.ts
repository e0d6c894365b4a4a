import { refreshToolServerView, toolServerNotFound } from "@/lib/connections/tool-server-api";
import { toolServerParamsSchema } from "@/lib/connections/tool-server-schema";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/**
 * 200 with the server after listing its tools again. A failure keeps the stored list and is
 * answered as `lastError` (still 200): the request worked, the server did not.
 */
export const POST = route(
  {
    auth: "session",
    params: toolServerParamsSchema,
    paramsError: toolServerNotFound,
    rateLimit: "api",
  },
  async ({ actor, params }) =>
    Response.json({ server: await refreshToolServerView({ userId: actor.id, id: params.id }) }),
);
