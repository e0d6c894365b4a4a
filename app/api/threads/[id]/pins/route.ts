// The thread's pins: what every later handoff carries in must_preserve (docs/handoffs.md#pins).
// Owner only; another user's thread is 404. A pin is stored masked, like everything a handoff
// carries; an empty or too long one is a 400 that stores nothing.
import { z } from "zod";
import { flattenPin, PIN_MAX_CHARS } from "@/core/pin-text";
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { addThreadPin, listPinViews } from "@/lib/context/thread-pins";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

const bodySchema = z
  .object({
    text: z
      .string()
      .refine((t) => flattenPin(t) !== "", "A pin needs some text.")
      .refine(
        (t) => flattenPin(t).length <= PIN_MAX_CHARS,
        `A pin holds at most ${PIN_MAX_CHARS} characters.`,
      ),
  })
  .strict();

export const GET = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound },
  async ({ actor, params }) => {
    const pins = await listPinViews({ userId: actor.id, threadId: params.id });
    if (!pins) throw threadNotFound();
    return Response.json({ pins });
  },
);

export const POST = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound, body: bodySchema },
  async ({ actor, params, body }) => {
    const added = await addThreadPin({
      userId: actor.id,
      threadId: params.id,
      text: body.text,
      source: "user",
    });
    if (!added) throw threadNotFound();
    return Response.json({ pin: added.pin }, { status: added.created ? 201 : 200 });
  },
);
