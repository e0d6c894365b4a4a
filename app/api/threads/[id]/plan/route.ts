// The thread's plan (items p1, p2, … with their status). Owner only.
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { route } from "@/lib/http/route";
import { loadPlanView } from "@/lib/workspace/api";

export const dynamic = "force-dynamic";

export const GET = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound },
  async ({ actor, params }) =>
    Response.json(await loadPlanView({ userId: actor.id, threadId: params.id })),
);
