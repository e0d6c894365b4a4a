import {
  deleteProfileBySlug,
  getProfileView,
  profileNotFound,
  updateProfileView,
} from "@/lib/agents/profile-api";
import { patchProfileBodySchema, profileParamsSchema } from "@/lib/agents/profile-schema";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// Another user's slug, a missing one and a malformed one all answer 404 alike. The built-in
// `default` is readable; changing or deleting it is a 403.
const profile = { params: profileParamsSchema, paramsError: profileNotFound } as const;

export const GET = route({ auth: "session", ...profile }, async ({ actor, params }) =>
  Response.json({ profile: await getProfileView({ userId: actor.id, profileId: params.slug }) }),
);

export const PATCH = route(
  { auth: "session", ...profile, body: patchProfileBodySchema },
  async ({ actor, params, body }) =>
    Response.json({
      profile: await updateProfileView({ userId: actor.id, profileId: params.slug, patch: body }),
    }),
);

/** 204; a profile that threads still use is a 409 saying how many. */
export const DELETE = route({ auth: "session", ...profile }, async ({ actor, params }) => {
  await deleteProfileBySlug({ userId: actor.id, profileId: params.slug });
  return new Response(null, { status: 204 });
});
