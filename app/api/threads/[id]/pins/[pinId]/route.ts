// Unpins one of the thread's pins: the next handoff no longer carries it, and a writer that lists
// it again does not bring it back. Owner only; a malformed or unknown pin id is 404.
import { z } from "zod";
import { BatonError, type FieldErrors } from "@/core/errors";
import { threadNotFound } from "@/lib/chat/thread-param";
import { removeThreadPin } from "@/lib/context/thread-pins";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

const paramsSchema = z.object({ id: z.uuid(), pinId: z.uuid() });

const pinNotFound = () => new BatonError("not_found:pin", "Pin not found.");

export const DELETE = route(
  {
    auth: "session",
    params: paramsSchema,
    paramsError: (fields: FieldErrors) => (fields.id ? threadNotFound() : pinNotFound()),
  },
  async ({ actor, params }) => {
    const pin = await removeThreadPin({
      userId: actor.id,
      threadId: params.id,
      pinId: params.pinId,
    });
    if (pin === "no_thread") throw threadNotFound();
    if (pin === "no_pin") throw pinNotFound();
    return Response.json({ pin });
  },
);
