// The body of the chat request that answers tool approvals: the assistant message sent back
// carrying only its answered calls (`{type, toolCallId, state, approval}` — the server reads
// nothing else from it and trusts its stored copy for the rest), plus the approval ids the user
// answered "Allow for this session". See lib/chat/approval-request.ts for what the server accepts.
import { isToolPart, type ToolPart } from "./tool-view";
import type { ChatMessage } from "./types";

type AnsweredPart = Extract<ToolPart, { state: "approval-responded" }>;

export interface ApprovalAnswerBody {
  message: { id: string; role: "assistant"; parts: Record<string, unknown>[] };
  allowForSession?: string[];
}

/** The answer to send for `message`, or null when it answers no approval. */
export function approvalAnswerBody(
  message: ChatMessage,
  allowForSession: ReadonlySet<string>,
): ApprovalAnswerBody | null {
  const answered = message.parts.filter(
    (part): part is AnsweredPart => isToolPart(part) && part.state === "approval-responded",
  );
  if (message.role !== "assistant" || answered.length === 0) return null;
  const parts = answered.map((part) => ({
    type: part.type,
    ...(part.type === "dynamic-tool" ? { toolName: part.toolName } : {}),
    toolCallId: part.toolCallId,
    state: part.state,
    approval: {
      id: part.approval.id,
      approved: part.approval.approved,
      ...(part.approval.reason ? { reason: part.approval.reason } : {}),
    },
  }));
  const allowed = answered
    .filter((part) => part.approval.approved && allowForSession.has(part.approval.id))
    .map((part) => part.approval.id);
  return {
    message: { id: message.id, role: "assistant", parts },
    ...(allowed.length > 0 ? { allowForSession: allowed } : {}),
  };
}
