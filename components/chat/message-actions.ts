// Which actions a row of the owner's chat offers: the newest reply can be regenerated (or
// retried after a failure, or continued when the server stopped while writing it), the latest
// question edited, and a tool call waiting in the newest reply answered.
import { answerRanAcrossReset, spansSessions } from "@/lib/chat/live-messages";
import { continuableId } from "@/lib/chat/reply-notice";
import { type ApprovalDecision, pendingApprovalIds } from "@/lib/chat/tool-view";
import type { ChatMessage } from "@/lib/chat/types";
import type { MessageActions } from "./message-view";

export interface ActionContext {
  /** The live messages useChat holds (the newest page and what streamed since). */
  messages: readonly ChatMessage[];
  /** Something runs that an action would race: a stream, queued answers, a reset, the server. */
  locked: boolean;
  /** The last request failed (not a refused approval answer or continue). */
  failed: boolean;
  regenerate: () => void;
  continueReply: (messageId: string) => void;
  editLast: () => void;
  answerApproval: (approvalId: string, decision: ApprovalDecision) => void;
  /** The thread, once it exists on the server: replies then offer their run timeline. */
  threadId?: string;
  /** Each reply's question (lib/chat/run-timeline.ts replyRequestIds). */
  requestIds?: ReadonlyMap<string, string>;
}

/** The run timeline of a reply, offered whatever else is going on (it only reads). */
function timelineOf(message: ChatMessage, context: ActionContext): MessageActions {
  const requestMessageId = context.requestIds?.get(message.id);
  if (message.role !== "assistant" || !context.threadId || !requestMessageId) return {};
  return { timeline: { threadId: context.threadId, requestMessageId } };
}

export function actionsFor(message: ChatMessage, context: ActionContext): MessageActions {
  const timeline = timelineOf(message, context);
  return { ...rowActions(message, context), ...timeline };
}

function rowActions(message: ChatMessage, context: ActionContext): MessageActions {
  const { messages, locked, failed, regenerate, editLast } = context;
  if (locked) return {};
  const lastMessage = messages.at(-1);
  const lastUser = messages.findLast((m) => m.role === "user");
  // The server refuses to edit or regenerate an answer that ran across a reset.
  const fixed = answerRanAcrossReset(messages);
  if (message.id === lastMessage?.id && message.role === "assistant") {
    // A live run that reset midway waits in its stored second half: answerable once the
    // refresh after the run has put that message in place.
    const answerable = pendingApprovalIds(message.parts).length > 0 && !spansSessions(lastMessage);
    const approval = answerable ? { onApproval: context.answerApproval } : {};
    // Continuing appends to the stored reply and rolls nothing back, so a reply that ran
    // across a reset may be continued even though it may not be regenerated.
    const resume =
      continuableId(messages) === message.id
        ? { onContinue: () => context.continueReply(message.id) }
        : {};
    if (fixed) return { ...approval, ...resume };
    return failed
      ? { onRetry: regenerate, ...approval, ...resume }
      : { onRegenerate: regenerate, ...approval, ...resume };
  }
  if (message.id === lastUser?.id && !fixed) {
    return failed && lastMessage?.id === message.id
      ? { onRetry: regenerate, onEdit: editLast }
      : { onEdit: editLast };
  }
  return {};
}
