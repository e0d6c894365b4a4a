// The run that answered a user message of the thread (`?request=<messageId>`), so a reply can
// open its journal; `{ run: null }` when none did. Owner only: another user's thread is a 404.
import { z } from "zod";
import { findRunForRequest } from "@/db/queries/run-events";
import { getThread } from "@/db/queries/threads";
import { runLookupResponseSchema } from "@/lib/agents/journal-schemas";
import { runSummaryOf } from "@/lib/agents/journal-views";
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

const querySchema = z.object({ request: z.string().min(1).max(128) });

export const GET = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound, query: querySchema },
  async ({ actor, params, query }) => {
    const thread = await getThread({ userId: actor.id, threadId: params.id });
    if (!thread) throw threadNotFound();
    const run = await findRunForRequest({
      userId: actor.id,
      threadId: thread.id,
      requestMessageId: query.request,
    });
    return Response.json(runLookupResponseSchema.parse({ run: run ? runSummaryOf(run) : null }));
  },
);
