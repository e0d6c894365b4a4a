import { route } from "@/lib/http/route";
import { scrapeMetrics } from "@/lib/metrics/scrape";

export const dynamic = "force-dynamic";

/** Prometheus text format; see lib/metrics/scrape.ts for who may read it. */
export const GET = route(
  { auth: "none", authChallenge: 'Bearer realm="metrics"' },
  async ({ request }) => scrapeMetrics(request),
);
