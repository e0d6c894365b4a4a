import { runChatTurn } from "@/lib/agents/turn";
import { requireActor } from "@/lib/auth/server";
import { chatRequestSchema, MAX_BODY_BYTES } from "@/lib/chat/request";
import { errorResponse, readJson } from "@/lib/errors";

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  try {
    const body = chatRequestSchema.parse(await readJson(request, MAX_BODY_BYTES));
    const actor = await requireActor(request);
    return await runChatTurn({ actor, request: body, signal: request.signal });
  } catch (error) {
    return errorResponse(error);
  }
}
