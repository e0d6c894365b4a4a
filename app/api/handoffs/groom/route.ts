import { groomOwnHandoffs } from "@/lib/handoff-api/groom";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Deletes handoffs whose thread is gone or idle past BATON_HANDOFF_TTL_DAYS; says what and why. */
export const POST = route({ auth: "api:groom", rateLimit: "api" }, async ({ identity }) =>
  Response.json(await groomOwnHandoffs(identity)),
);
