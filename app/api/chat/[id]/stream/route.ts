import { UI_MESSAGE_STREAM_HEADERS } from "ai";
import { z } from "zod";
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { route } from "@/lib/http/route";
import { openLiveStream } from "@/lib/streams/live";

export const dynamic = "force-dynamic";

const querySchema = z.object({ streamId: z.uuid().optional() });

// Follows a live reply from its start (what useChat's `resume` calls); 204 when nothing is live.
export const GET = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound, query: querySchema },
  async ({ actor, params, query }) => {
    const stream = await openLiveStream({
      userId: actor.id,
      threadId: params.id,
      streamId: query.streamId,
    });
    if (!stream) return new Response(null, { status: 204 });
    return new Response(stream.pipeThrough(new TextEncoderStream()), {
      headers: UI_MESSAGE_STREAM_HEADERS,
    });
  },
);
