import { createApiToken, listUserApiTokens } from "@/lib/handoff-api/api-tokens";
import { createTokenBodySchema } from "@/lib/handoff-api/schemas";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// Token management needs a browser session: a token can never mint or list tokens.

export const GET = route({ auth: "session" }, async ({ actor }) =>
  Response.json({ tokens: await listUserApiTokens({ userId: actor.id }) }),
);

/** 201 with the token itself, the only time it is ever shown. */
export const POST = route(
  { auth: "session", body: createTokenBodySchema },
  async ({ actor, body }) =>
    Response.json(await createApiToken({ actor, ...body }), { status: 201 }),
);
