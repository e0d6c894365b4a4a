// A shared thread's workspace files, read-only: the token is the capability (no session). A
// malformed or revoked token is a 404.
import { z } from "zod";
import { shareNotFound, shareTokenSchema } from "@/lib/chat/share";
import { loadSharedFilesView } from "@/lib/chat/share-workspace";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route(
  { auth: "none", params: z.object({ token: shareTokenSchema }), paramsError: shareNotFound },
  async ({ params }) =>
    Response.json(await loadSharedFilesView(params.token), {
      headers: { "Cache-Control": "no-store" },
    }),
);
