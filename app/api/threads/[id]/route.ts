import { z } from "zod";
import { assignThreadProfile } from "@/db/queries/profiles";
import { deleteThread, updateThread } from "@/db/queries/threads";
import { profileSlugSchema } from "@/lib/agents/profile-schema";
import { threadPageQuerySchema } from "@/lib/chat/page-query";
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { publicThread } from "@/lib/chat/thread-view";
import { route } from "@/lib/http/route";
import { loadThreadView } from "@/lib/runs/thread-open";

export const dynamic = "force-dynamic";

const patchSchema = z
  .strictObject({
    title: z.string().trim().min(1).max(200).optional(),
    profile: profileSlugSchema.optional(),
  })
  .refine((patch) => patch.title !== undefined || patch.profile !== undefined, {
    message: "Send a title, a profile, or both.",
  });
const thread = { params: threadParamsSchema, paramsError: threadNotFound } as const;

export const GET = route(
  { auth: "session", ...thread, query: threadPageQuerySchema },
  async ({ actor, params, query }) => {
    const view = await loadThreadView({ userId: actor.id, threadId: params.id, ...query });
    if (!view) throw threadNotFound();
    return Response.json(view);
  },
);

export const PATCH = route(
  { auth: "session", ...thread, body: patchSchema },
  async ({ actor, params, body: { title, profile } }) => {
    const target = { userId: actor.id, threadId: params.id, title };
    // Moving a thread onto an agent checks the agent is the user's (400 on `profile` if not).
    const updated =
      profile === undefined
        ? await updateThread(target)
        : await assignThreadProfile({ ...target, profileId: profile });
    if (!updated) throw threadNotFound();
    return Response.json({ thread: publicThread(updated) });
  },
);

export const DELETE = route({ auth: "session", ...thread }, async ({ actor, params }) => {
  const deleted = await deleteThread({ userId: actor.id, threadId: params.id });
  if (!deleted) throw threadNotFound();
  return new Response(null, { status: 204 });
});
