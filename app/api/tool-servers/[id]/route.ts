import {
  deleteToolServerById,
  getToolServerView,
  toolServerNotFound,
  updateToolServerView,
} from "@/lib/connections/tool-server-api";
import {
  patchToolServerBodySchema,
  toolServerParamsSchema,
} from "@/lib/connections/tool-server-schema";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// Another user's id, a missing one and a malformed one all answer 404 alike.
const server = { params: toolServerParamsSchema, paramsError: toolServerNotFound } as const;

export const GET = route({ auth: "session", ...server }, async ({ actor, params }) =>
  Response.json({ server: await getToolServerView({ userId: actor.id, id: params.id }) }),
);

/** 200 with the server; a new URL or token lists its tools again (a failure is `lastError`). */
export const PATCH = route(
  { auth: "session", ...server, body: patchToolServerBodySchema, rateLimit: "api" },
  async ({ actor, params, body }) =>
    Response.json({
      server: await updateToolServerView({ userId: actor.id, id: params.id, patch: body }),
    }),
);

/** 204. */
export const DELETE = route({ auth: "session", ...server }, async ({ actor, params }) => {
  await deleteToolServerById({ userId: actor.id, id: params.id });
  return new Response(null, { status: 204 });
});
