import { z } from "zod";
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { route } from "@/lib/http/route";
import { stopLiveStreams } from "@/lib/streams/live";

export const dynamic = "force-dynamic";

const bodySchema = z.strictObject({ streamId: z.uuid().optional() }).optional();

// Stops the thread's replies being generated (or one stream) on whichever server produces them.
export const POST = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound, body: bodySchema },
  async ({ actor, params, body }) =>
    Response.json({
      stopping: await stopLiveStreams({
        userId: actor.id,
        threadId: params.id,
        streamId: body?.streamId,
      }),
    }),
);

// Answers nothing: the chat page sends it once per load when it is idle, so that under `next dev` this route
// is compiled before the first Stop rather than on it (compiling took seconds on a busy machine,
// while the reply went on streaming). In a production build it is a cheap no-op.
export const HEAD = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound },
  async () => new Response(null, { status: 204 }),
);
