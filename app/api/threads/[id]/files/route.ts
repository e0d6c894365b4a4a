// The thread's workspace files, with spilled tool results listed apart. Owner only.
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { route } from "@/lib/http/route";
import { loadFilesView } from "@/lib/workspace/api";

export const dynamic = "force-dynamic";

export const GET = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound },
  async ({ actor, params }) =>
    Response.json(await loadFilesView({ userId: actor.id, threadId: params.id })),
);
