// One chat turn: store the user's message, then stream the model's answer as an AI SDK UI
// message stream and store it — complete, or partial when the user stops or disconnects.
import "server-only";
import {
  consumeStream,
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  type LanguageModelUsage,
  streamText,
} from "ai";
import {
  appendMessage,
  deleteMessagesAfter,
  getMessage,
  listSessionMessages,
  updateMessage,
} from "@/db/queries/messages";
import { getCurrentSession, recordSessionUsage } from "@/db/queries/sessions";
import { ensureThread, getThread, updateThread } from "@/db/queries/threads";
import type { Message } from "@/db/schema";
import { defaultModelId, getLanguageModel, listConfiguredModels } from "@/lib/ai/providers";
import { estimateTokens } from "@/lib/ai/tokens";
import type { Actor } from "@/lib/auth/server";
import { type ChatRequest, messageText, titleFromMessage } from "@/lib/chat/request";
import { toChatMessage } from "@/lib/chat/stored-message";
import type { ChatMessage, SessionPart } from "@/lib/chat/types";
import { BatonError } from "@/lib/errors";

const SYSTEM_PROMPT =
  "You are Baton, a helpful assistant for long-running work. Answer clearly and concisely.";

function resolveModel(requested: string | undefined, threadModel: string | undefined): string {
  const configured = listConfiguredModels();
  const wanted = requested ?? threadModel;
  if (wanted && configured.some((m) => m.id === wanted)) return wanted;
  if (requested) {
    throw new BatonError("bad_request:body", `The model "${requested}" is not configured.`, {
      model: ["Choose one of the configured models."],
    });
  }
  return defaultModelId();
}

/** Applies the request to the stored history: a new message, an edit, or a regenerate. */
async function applyUserInput(
  actor: Actor,
  request: ChatRequest,
  sessionId: string,
  model: string,
): Promise<void> {
  const threadId = request.id;
  if (request.trigger === "submit-message") {
    const { message } = request;
    const existing = await getMessage({ userId: actor.id, threadId, id: message.id });
    if (existing) {
      // Edit-and-resend: only the last user message may be edited; its answer is replaced.
      if (existing.role !== "user") {
        throw new BatonError("conflict:message", "Only your own last message can be edited.");
      }
      const after = await deleteMessagesAfter({ userId: actor.id, threadId, seq: existing.seq });
      void after;
      await updateMessage({
        userId: actor.id,
        threadId,
        id: message.id,
        patch: {
          parts: message.parts,
          status: "complete",
          tokenCount: estimateTokens(messageText(message.parts), model),
        },
      });
      return;
    }
    await appendMessage({
      userId: actor.id,
      threadId,
      sessionId,
      message: {
        id: message.id,
        role: "user",
        parts: message.parts,
        status: "complete",
        tokenCount: estimateTokens(messageText(message.parts), model),
      },
    });
    return;
  }
  // Regenerate: drop the last assistant reply (and anything after it) and answer again.
  const history = await listSessionMessages({ userId: actor.id, threadId, sessionId });
  const lastUser = history.findLast((m) => m.role === "user");
  if (!lastUser) throw new BatonError("not_found:message", "There is no message to answer.");
  await deleteMessagesAfter({ userId: actor.id, threadId, seq: lastUser.seq });
}

function isEmptyPartial(m: Message): boolean {
  return m.role === "assistant" && m.status !== "complete" && messageText(m.parts).length === 0;
}

export async function runChatTurn({
  actor,
  request,
  signal,
}: {
  actor: Actor;
  request: ChatRequest;
  signal: AbortSignal;
}): Promise<Response> {
  const threadId = request.id;
  const existing = await getThread({ userId: actor.id, threadId });
  const modelId = resolveModel(request.model, existing?.model);

  if (!existing) {
    if (request.trigger !== "submit-message") {
      throw new BatonError("not_found:thread", "Thread not found.");
    }
    const title = titleFromMessage(messageText(request.message.parts));
    const ensured = await ensureThread({ userId: actor.id, threadId, model: modelId, title });
    if (!ensured) throw new BatonError("not_found:thread", "Thread not found.");
  } else if (existing.model !== modelId) {
    await updateThread({ userId: actor.id, threadId, model: modelId });
  }

  const session = await getCurrentSession({ userId: actor.id, threadId });
  if (!session) throw new BatonError("not_found:thread", "Thread not found.");

  await applyUserInput(actor, request, session.id, modelId);

  const history = (await listSessionMessages({ userId: actor.id, threadId, sessionId: session.id }))
    .filter((m) => !isEmptyPartial(m))
    .map(toChatMessage);
  const modelMessages = await convertToModelMessages(history);

  const assistantId = crypto.randomUUID();
  const stored = await appendMessage({
    userId: actor.id,
    threadId,
    sessionId: session.id,
    message: { id: assistantId, role: "assistant", parts: [], status: "partial", model: modelId },
  });

  const sessionPart: SessionPart = {
    id: session.id,
    number: session.number,
    model: session.model,
    profile: session.profile,
    trigger: session.trigger,
    startedAt: session.startedAt.toISOString(),
  };
  const metadata = {
    seq: stored.seq,
    sessionId: session.id,
    model: modelId,
    createdAt: stored.createdAt.toISOString(),
  };

  let usage: LanguageModelUsage | undefined;
  let failed = false;
  const stream = createUIMessageStream<ChatMessage>({
    execute: ({ writer }) => {
      writer.write({ type: "start", messageId: assistantId, messageMetadata: { ...metadata, status: "partial" } });
      writer.write({ type: "data-session", id: `session-${session.id}`, data: sessionPart });
      const result = streamText({
        model: getLanguageModel(modelId),
        system: SYSTEM_PROMPT,
        messages: modelMessages,
        abortSignal: signal,
        onFinish: (event) => {
          usage = event.totalUsage;
        },
        onError: () => {
          failed = true;
        },
      });
      writer.merge(
        result.toUIMessageStream<ChatMessage>({
          sendStart: false,
          messageMetadata: ({ part }) =>
            part.type === "finish" ? { ...metadata, status: "complete" } : undefined,
        }),
      );
    },
    onError: (error) => {
      failed = true;
      console.error("[baton] chat stream failed", error);
      return "The model failed to answer. Try again.";
    },
    onFinish: async ({ responseMessage, isAborted }) => {
      const status = isAborted ? "partial" : failed ? "error" : "complete";
      const text = messageText(responseMessage.parts);
      await updateMessage({
        userId: actor.id,
        threadId,
        id: assistantId,
        patch: {
          parts: responseMessage.parts,
          status,
          usage: usage ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } : null,
          tokenCount: estimateTokens(text, modelId),
        },
      });
      if (usage?.inputTokens !== undefined) {
        await recordSessionUsage({
          sessionId: session.id,
          inputTokens: usage.inputTokens,
          coveredSeq: stored.seq,
        });
      }
    },
  });

  return createUIMessageStreamResponse({
    stream,
    // Tee the stream and drain one copy here so onFinish runs even if the client goes away.
    consumeSseStream: ({ stream: copy }) => consumeStream({ stream: copy }),
  });
}
