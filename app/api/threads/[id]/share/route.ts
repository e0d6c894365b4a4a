import { createShareLink, currentShareToken, revokeShareLink, sharePath } from "@/lib/chat/share";
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

const thread = {
  auth: "session",
  params: threadParamsSchema,
  paramsError: threadNotFound,
} as const;

/** The thread's link if it has one: `{url: null}` while it is private (nothing is created). */
export const GET = route(thread, async ({ actor, params, request }) => {
  const token = await currentShareToken({ userId: actor.id, threadId: params.id });
  const url = token ? new URL(sharePath(token), request.url).toString() : null;
  return Response.json({ token, url });
});

/** Shares the thread read-only: 201 with a new link, 200 with the link it already had. */
export const POST = route(thread, async ({ actor, params, request }) => {
  const link = await createShareLink({ userId: actor.id, threadId: params.id });
  const url = new URL(sharePath(link.token), request.url).toString();
  return Response.json({ token: link.token, url }, { status: link.created ? 201 : 200 });
});

/** Revokes the link: it answers 404 from now on; sharing again makes a new one. */
export const DELETE = route(thread, async ({ actor, params }) => {
  await revokeShareLink({ userId: actor.id, threadId: params.id });
  return new Response(null, { status: 204 });
});
