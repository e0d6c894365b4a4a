import { route } from "@/lib/http/route";
import { readiness } from "@/lib/metrics/readiness";

export const dynamic = "force-dynamic";

/** Readiness: 200 when every dependency is fine, else 503 naming the failing ones. */
export const GET = route({ auth: "none" }, async () => {
  const ready = await readiness();
  return Response.json(ready, {
    status: ready.status === "ok" ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
});
