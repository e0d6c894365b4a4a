import { exportJson, exportMarkdown } from "@/lib/handoff-api/exchange";
import { exportQuerySchema } from "@/lib/handoff-api/exchange-schemas";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** `?key=` (a thread's id for a conversation's handoffs), `revision`, `format=json|markdown`. */
export const GET = route(
  { auth: "api:read", query: exportQuerySchema, rateLimit: "api" },
  async ({ identity, query }) => {
    const name = query.revision === undefined ? query.key : `${query.key}.r${query.revision}`;
    if (query.format === "markdown") {
      return new Response(await exportMarkdown(identity, query), {
        headers: {
          "content-type": "text/markdown; charset=utf-8",
          "content-disposition": `attachment; filename="${name}.md"`,
        },
      });
    }
    return Response.json(await exportJson(identity, query), {
      headers: { "content-disposition": `attachment; filename="${name}.json"` },
    });
  },
);
