import { createToolServerView, listToolServerViews } from "@/lib/connections/tool-server-api";
import { createToolServerBodySchema } from "@/lib/connections/tool-server-schema";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** The user's MCP tool servers by slug; never their tokens. */
export const GET = route({ auth: "session" }, async ({ actor }) =>
  Response.json({ servers: await listToolServerViews({ userId: actor.id }) }),
);

/**
 * 201 with the new server, its tools listed right away; a server that cannot be reached is still
 * stored, with `lastError` set. A refused address is a 400 on `url`, a taken slug a 409.
 */
export const POST = route(
  { auth: "session", body: createToolServerBodySchema, rateLimit: "api" },
  async ({ actor, body }) =>
    Response.json(
      { server: await createToolServerView({ userId: actor.id, body }) },
      { status: 201 },
    ),
);
