// A shared thread's plan, read-only: the token is the capability (no session).
import { z } from "zod";
import { shareNotFound, shareTokenSchema } from "@/lib/chat/share";
import { loadSharedPlanView } from "@/lib/chat/share-workspace";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route(
  { auth: "none", params: z.object({ token: shareTokenSchema }), paramsError: shareNotFound },
  async ({ params }) =>
    Response.json(await loadSharedPlanView(params.token), {
      headers: { "Cache-Control": "no-store" },
    }),
);
