// The cards' calls to the pins API (`/api/threads/{id}/pins`), answers parsed with its schemas.
import { post, readableError, request } from "@/lib/api/client";
import { type PinViewAnswer, pinAnswerSchema } from "@/lib/api/pin-schemas";

export { readableError };

export async function pinThreadText(threadId: string, text: string): Promise<PinViewAnswer> {
  const answer = await post(
    `/api/threads/${encodeURIComponent(threadId)}/pins`,
    { text },
    pinAnswerSchema,
    { fallback: "Couldn't pin that." },
  );
  return answer.pin;
}

export async function unpinThreadPin(threadId: string, pinId: string): Promise<PinViewAnswer> {
  const answer = await request(
    "DELETE",
    `/api/threads/${encodeURIComponent(threadId)}/pins/${encodeURIComponent(pinId)}`,
    pinAnswerSchema,
    { fallback: "Couldn't unpin that." },
  );
  return answer.pin;
}
