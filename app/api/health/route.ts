import { pingDatabase } from "@/db/queries/health";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "none" }, async () => {
  const { ok, kind } = await pingDatabase();
  return Response.json(
    { status: ok ? "ok" : "error", database: kind },
    { status: ok ? 200 : 503, headers: { "cache-control": "no-store" } },
  );
});
