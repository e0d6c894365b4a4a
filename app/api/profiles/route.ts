import { createProfileView, listProfileViews } from "@/lib/agents/profile-api";
import { createProfileBodySchema } from "@/lib/agents/profile-schema";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** The built-in Default agent (`builtIn: true`) first, then the user's own by name. */
export const GET = route({ auth: "session" }, async ({ actor }) =>
  Response.json({ profiles: await listProfileViews({ userId: actor.id }) }),
);

/** 201 with the new profile; a slug the user already has is a 409. */
export const POST = route(
  { auth: "session", body: createProfileBodySchema },
  async ({ actor, body }) =>
    Response.json(
      { profile: await createProfileView({ userId: actor.id, body }) },
      { status: 201 },
    ),
);
