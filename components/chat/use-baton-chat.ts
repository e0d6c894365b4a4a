"use client";
// useChat over Baton's SSE endpoint, sending only the new message (the server holds the
// history): the request body's kind (message, approval answer, continue), the model and agent it
// names, approvals answered "Allow for this session", continuing an interrupted reply, and
// refusals told in a toast.
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { useCallback, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { type ChatBodyKind, chatRequestBody } from "@/lib/chat/chat-body";
import { lostMidReply } from "@/lib/chat/reply-notice";
import type { ApprovalDecision } from "@/lib/chat/tool-view";
import type { ChatMessage } from "@/lib/chat/types";
import { notifyThreadsChanged, readableError } from "./chat-errors";
import type { LiveDataChunk } from "./use-live-streams";

export function useBatonChat({
  threadId,
  initialMessages,
  model,
  agent,
  onData,
  onSettled,
}: {
  threadId: string;
  initialMessages: ChatMessage[];
  model: string;
  /** Named only by a new chat's request: the server reads it to create the thread. */
  agent: string | undefined;
  onData: (part: LiveDataChunk) => void;
  /** The turn ended, or a refused request needs the stored copy re-read. */
  onSettled: () => void;
}) {
  const modelRef = useRef(model);
  modelRef.current = model;
  const agentRef = useRef(agent);
  agentRef.current = agent;
  // Approval ids answered "Allow for this session", named in the answer's request body.
  const allowForSession = useRef(new Set<string>());
  const requestKind = useRef<ChatBodyKind>("message");
  // A refused approval answer or continue: told in a toast, not shown as a failed reply.
  const [refusedRequest, setRefusedRequest] = useState<Error | null>(null);
  // The messages as last rendered, for the error handler (which useChat builds once).
  const messagesRef = useRef<ChatMessage[]>(initialMessages);

  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatMessage>({
        api: "/api/chat",
        prepareSendMessagesRequest: (request) => {
          const { kind, body } = chatRequestBody(request, {
            model: modelRef.current,
            profile: agentRef.current,
            allowForSession: allowForSession.current,
          });
          requestKind.current = kind;
          return { body };
        },
      }),
    [],
  );

  const chat = useChat<ChatMessage>({
    id: threadId,
    messages: initialMessages,
    transport,
    experimental_throttle: 40,
    // Answering the last approval of a step sends the answers (see lib/chat/chat-body.ts).
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onData,
    onFinish: () => {
      notifyThreadsChanged();
      onSettled();
    },
    onError: (err) => {
      // The connection broke after the reply began (the server went away mid-reply): the server
      // stored the question and what it streamed, so the reply reads as interrupted, with
      // Continue, rather than failed, and the thread is re-read (again and again while the server
      // is down) so the row takes the stored copy once a server is back.
      const cut = lostMidReply(err, messagesRef.current);
      if (cut) {
        toast.error("The connection to the server was lost while the reply was being written.");
        setMessages((current) =>
          current.map((m) =>
            m.id === cut.id ? { ...m, metadata: { ...m.metadata, status: "interrupted" } } : m,
          ),
        );
        setRefusedRequest(err);
        onSettled();
        return;
      }
      toast.error(readableError(err));
      // A refused approval answer (another tab answered first, or the session ended) or
      // continue (the reply was continued elsewhere, or can no longer be): re-read the thread so
      // the row shows how things stand.
      if (requestKind.current === "approval" || requestKind.current === "continue") {
        onSettled();
        setRefusedRequest(err);
      }
    },
  });
  const error = chat.error && chat.error !== refusedRequest ? chat.error : undefined;
  const { clearError, setMessages, sendMessage, addToolApprovalResponse } = chat;
  messagesRef.current = chat.messages;

  /**
   * Continues an interrupted reply: the AI SDK appends the stream to the last assistant message
   * when no new message is sent, and the body names it (lib/chat/chat-body.ts). The row reads as
   * a reply in progress meanwhile; a refusal re-reads the stored copy, which is still
   * interrupted.
   */
  const continueReply = useCallback(
    (messageId: string) => {
      clearError();
      setMessages((current) =>
        current.map((m) =>
          m.id === messageId ? { ...m, metadata: { ...m.metadata, status: "partial" } } : m,
        ),
      );
      void sendMessage(undefined, { body: { continueMessageId: messageId } });
    },
    [clearError, setMessages, sendMessage],
  );

  const answerApproval = useCallback(
    (approvalId: string, decision: ApprovalDecision) => {
      if (decision === "allow_session") allowForSession.current.add(approvalId);
      void addToolApprovalResponse({ id: approvalId, approved: decision !== "deny" });
    },
    [addToolApprovalResponse],
  );

  return { ...chat, error, transport, continueReply, answerApproval };
}
