import { serverEnv } from "@/core/env";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/**
 * Liveness: 200 while the process serves, whatever its dependencies do (a container's
 * HEALTHCHECK restarts on failure, and a database or Redis blip is not cured by a restart).
 * Whether the dependencies are fine is readiness: /api/ready.
 */
export const GET = route({ auth: "none" }, async () => {
  const database = serverEnv().DATABASE_URL ? "postgres" : "pglite";
  return Response.json(
    { status: "ok", database },
    { status: 200, headers: { "cache-control": "no-store" } },
  );
});
