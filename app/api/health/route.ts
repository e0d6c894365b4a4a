import { pingDatabase } from "@/db/queries/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const { ok, kind } = await pingDatabase();
  return Response.json({ status: ok ? "ok" : "error", database: kind }, { status: ok ? 200 : 503 });
}
