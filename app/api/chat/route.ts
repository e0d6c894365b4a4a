import { chatRequestSchema, MAX_BODY_BYTES } from "@/lib/chat/request";
import { route } from "@/lib/http/route";
import { runChatTurn } from "@/lib/runs/turn";

export const dynamic = "force-dynamic";

export const POST = route(
  { auth: "session", body: chatRequestSchema, rateLimit: "chat", maxBodyBytes: MAX_BODY_BYTES },
  // No request signal: a closed tab or a dropped connection does not stop the reply.
  ({ actor, body }) => runChatTurn({ actor, request: body }),
);
