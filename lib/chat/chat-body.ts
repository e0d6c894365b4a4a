// The body the chat view's transport sends to POST /api/chat (the shapes the server accepts are
// in lib/chat/request.ts): only what the server cannot know — the new user message, the answered
// approvals, the interrupted reply to continue, or which reply to regenerate — never the history.
import { approvalAnswerBody } from "./approval-body";
import type { ChatMessage } from "./types";

/** What the AI SDK transport hands `prepareSendMessagesRequest`, as far as the body needs it. */
export interface TransportRequest {
  id: string;
  messages: readonly ChatMessage[];
  trigger: "submit-message" | "regenerate-message";
  messageId: string | undefined;
  /** The per-request body given to `sendMessage`; `continueMessageId` asks for a continue. */
  body?: { continueMessageId?: unknown } | Record<string, unknown>;
}

export type ChatBodyKind = "message" | "approval" | "continue" | "regenerate";

/**
 * The request body, and what kind of request it is (the view treats a refused approval answer
 * or continue differently from a failed reply).
 */
export function chatRequestBody(
  request: TransportRequest,
  options: {
    model: string;
    /** The agent a new thread starts with (read by the server only when it creates the thread). */
    profile?: string;
    allowForSession: ReadonlySet<string>;
  },
): { kind: ChatBodyKind; body: Record<string, unknown> } {
  const { id, messages, trigger, messageId } = request;
  const { model, profile } = options;
  const last = messages.at(-1);
  const continueId = (request.body as { continueMessageId?: unknown } | undefined)
    ?.continueMessageId;
  // `sendMessage()` with no message continues the last assistant message in the AI SDK; the body
  // names it, and the server appends the new parts to that stored reply.
  if (trigger === "submit-message" && typeof continueId === "string") {
    return {
      kind: "continue",
      body: { id, trigger: "continue-message", messageId: continueId, model },
    };
  }
  // An approval answer: the assistant message goes back with only its answered calls.
  const answer =
    trigger === "submit-message" && last?.role === "assistant"
      ? approvalAnswerBody(last, options.allowForSession)
      : null;
  if (answer) return { kind: "approval", body: { id, trigger, model, ...answer } };
  if (trigger === "submit-message" && last) {
    return {
      kind: "message",
      body: {
        id,
        trigger,
        model,
        ...(profile ? { profile } : {}),
        message: { id: last.id, role: last.role, parts: last.parts },
      },
    };
  }
  return { kind: "regenerate", body: { id, trigger, messageId, model } };
}
