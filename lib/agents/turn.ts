// One chat turn: store the user's message (queued while a reset runs), check the context, reset
// or compact when the policy says so, then stream the answer and store it — complete, or
// partial when the user stops or disconnects. Everything rides one AI SDK UI message stream.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import {
  consumeStream,
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  type LanguageModelUsage,
  streamText,
  type UIMessageStreamWriter,
} from "ai";
import {
  appendMessage,
  deleteSessionMessagesAfter,
  getMessage,
  listSessionMessages,
  updateMessage,
} from "@/db/queries/messages";
import { getActiveReset, moveMessagesToSession } from "@/db/queries/resets";
import { getCurrentSession, recordSessionUsage } from "@/db/queries/sessions";
import { createThreadWithMessage, getThread, updateThread } from "@/db/queries/threads";
import type { ChatSession, Message } from "@/db/schema";
import { defaultModelId, getLanguageModel, listConfiguredModels } from "@/lib/ai/providers";
import type { Actor } from "@/lib/auth/server";
import { type ChatRequest, messageText, titleFromMessage } from "@/lib/chat/request";
import type { ChatMessage, ContextPart, MessageMetadata, SessionPart } from "@/lib/chat/types";
import { compactSession } from "@/lib/context/compaction";
import { messageTokenCount } from "@/lib/context/message-tokens";
import { decideContextAction } from "@/lib/context/policy";
import { committedSessionOf, performReset, waitForReset } from "@/lib/context/reset";
import { loadSessionContext, measureContext } from "@/lib/context/session-context";
import { BatonError } from "@/lib/errors";
import { type Profile, resolveProfile } from "./profiles";

export interface TurnDependencies {
  /** Resolves a model id to a model; tests wrap it to see the prompts a model receives. */
  languageModel?: (modelId: string) => LanguageModelV3;
}

type Writer = UIMessageStreamWriter<ChatMessage>;

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

function sessionPartOf(session: ChatSession): SessionPart {
  return {
    id: session.id,
    number: session.number,
    model: session.model,
    profile: session.profile,
    trigger: session.trigger,
    startedAt: session.startedAt.toISOString(),
  };
}

/** Applies the request to the stored history; returns the user message the turn answers. */
async function applyUserInput(
  actor: Actor,
  request: ChatRequest,
  session: ChatSession,
  model: string,
  queued: boolean,
): Promise<Message> {
  const threadId = request.id;
  if (request.trigger === "submit-message") {
    const { message } = request;
    const existing = await getMessage({ userId: actor.id, threadId, id: message.id });
    if (existing) {
      await assertEditable(actor, threadId, session, existing, queued);
      await deleteSessionMessagesAfter({
        userId: actor.id,
        threadId,
        sessionId: session.id,
        seq: existing.seq,
      });
      const updated = await updateMessage({
        userId: actor.id,
        threadId,
        id: message.id,
        patch: {
          parts: message.parts,
          status: "complete",
          tokenCount: messageTokenCount(message.parts, model),
        },
      });
      if (!updated) throw new BatonError("not_found:message", "Message not found.");
      return updated;
    }
    return appendMessage({
      userId: actor.id,
      threadId,
      sessionId: session.id,
      message: {
        id: message.id,
        role: "user",
        parts: message.parts,
        status: queued ? "queued" : "complete",
        tokenCount: messageTokenCount(message.parts, model),
      },
    });
  }
  if (queued) {
    throw new BatonError("conflict:reset_in_progress", "Wait for the context reset to finish.");
  }
  // Regenerate: drop the last reply (and anything after it) and answer the last user message.
  const history = await listSessionMessages({ userId: actor.id, threadId, sessionId: session.id });
  const lastUser = history.findLast((m) => m.role === "user");
  if (!lastUser) throw new BatonError("not_found:message", "There is no message to answer.");
  await deleteSessionMessagesAfter({
    userId: actor.id,
    threadId,
    sessionId: session.id,
    seq: lastUser.seq,
  });
  return lastUser;
}

/**
 * Edit-and-resend may only replace the latest user message of the current session (and so only
 * its answer): an id of any earlier message would otherwise wipe everything after it.
 */
async function assertEditable(
  actor: Actor,
  threadId: string,
  session: ChatSession,
  existing: Message,
  queued: boolean,
): Promise<void> {
  const refuse = () =>
    new BatonError("conflict:message", "Only your latest message in this session can be edited.");
  if (existing.role !== "user" || queued || existing.sessionId !== session.id) throw refuse();
  const history = await listSessionMessages({ userId: actor.id, threadId, sessionId: session.id });
  if (history.findLast((m) => m.role === "user")?.id !== existing.id) throw refuse();
}

export async function runChatTurn({
  actor,
  request,
  signal,
  deps = {},
}: {
  actor: Actor;
  request: ChatRequest;
  signal: AbortSignal;
  deps?: TurnDependencies;
}): Promise<Response> {
  const threadId = request.id;
  const existing = await getThread({ userId: actor.id, threadId });
  const modelId = resolveModel(request.model, existing?.model);
  const modelFor = deps.languageModel ?? ((id: string) => getLanguageModel(id));

  // A new thread is created together with its first message, so a failed request leaves none.
  let created: Message | null = null;
  if (!existing) {
    if (request.trigger !== "submit-message") {
      throw new BatonError("not_found:thread", "Thread not found.");
    }
    const { message } = request;
    const made = await createThreadWithMessage({
      userId: actor.id,
      threadId,
      model: modelId,
      title: titleFromMessage(messageText(message.parts)),
      message: {
        id: message.id,
        role: "user",
        parts: message.parts,
        status: "complete",
        tokenCount: messageTokenCount(message.parts, modelId),
      },
    });
    if (!made) throw new BatonError("not_found:thread", "Thread not found.");
    created = made.message;
  } else if (existing.model !== modelId) {
    await updateThread({ userId: actor.id, threadId, model: modelId });
  }
  const profile = await resolveProfile({
    userId: actor.id,
    profileId: existing?.profile ?? "default",
  });

  const firstSession = await getCurrentSession({ userId: actor.id, threadId });
  if (!firstSession) throw new BatonError("not_found:thread", "Thread not found.");
  // A message sent while a reset runs is stored at once as queued, and answered after it.
  const activeReset = await getActiveReset({ userId: actor.id, threadId });
  const queuedBehind = activeReset?.fromSession === firstSession.number ? activeReset : null;
  const userMessage =
    created ?? (await applyUserInput(actor, request, firstSession, modelId, queuedBehind !== null));

  const assistantId = crypto.randomUUID();
  let usage: LanguageModelUsage | undefined;
  let failed = false;
  let answerSession: ChatSession = firstSession;
  let assistantSeq: number | null = null;

  const stream = createUIMessageStream<ChatMessage>({
    execute: async ({ writer }) => {
      writer.write({ type: "start", messageId: assistantId, messageMetadata: { model: modelId } });
      let session = firstSession;
      let answering: string[] = [];
      if (queuedBehind) {
        writer.write({
          type: "data-queued",
          id: `queued-${userMessage.id}`,
          data: { messageId: userMessage.id },
        });
        session = await sessionAfterWaiting(actor, threadId, firstSession, [userMessage.id]);
        answering = [userMessage.id];
        await updateMessage({
          userId: actor.id,
          threadId,
          id: userMessage.id,
          patch: { status: "complete" },
        });
      }
      // A reset that committed between our check and our insert moved this message forward.
      const placed = await getMessage({ userId: actor.id, threadId, id: userMessage.id });
      if (placed && placed.sessionId !== session.id)
        session = await reloadSession(actor, threadId, session);
      writeSession(writer, session);

      let ctx = await loadSessionContext({
        userId: actor.id,
        threadId,
        session,
        profile,
        answering,
      });
      let context = await measureContext({ session, system: ctx.system, modelId, profile });
      writeContext(writer, context);

      let action = decideContextAction({
        utilization: context.utilization,
        strategy: context.strategy,
        resetThreshold: profile.resetThreshold,
        compactThreshold: profile.compactThreshold,
        compactedThisTurn: false,
        resetThisTurn: false,
      });
      if (action === "compact") {
        const compaction = await compactSession({
          threadId,
          ctx,
          model: modelFor(modelId),
          tokensBefore: context.inputTokens,
          estimateAfter: async () => {
            const reloaded = await reloadSession(actor, threadId, session);
            const fresh = await loadSessionContext({
              userId: actor.id,
              threadId,
              session: reloaded,
              profile,
              answering,
            });
            return (
              await measureContext({ session: reloaded, system: fresh.system, modelId, profile })
            ).inputTokens;
          },
        });
        if (compaction) {
          writer.write({
            type: "data-compaction",
            id: `compaction-${session.id}-${userMessage.seq}`,
            data: compaction,
          });
          session = await reloadSession(actor, threadId, session);
          ctx = await loadSessionContext({
            userId: actor.id,
            threadId,
            session,
            profile,
            answering,
          });
          context = await measureContext({ session, system: ctx.system, modelId, profile });
          writeContext(writer, context);
        }
        action = decideContextAction({
          utilization: context.utilization,
          strategy: context.strategy,
          resetThreshold: profile.resetThreshold,
          compactThreshold: profile.compactThreshold,
          compactedThisTurn: true,
          resetThisTurn: false,
        });
      }
      if (action === "reset" && !queuedBehind) {
        const next = await resetBeforeAnswer({
          actor,
          threadId,
          session,
          profile,
          modelId,
          model: modelFor(modelId),
          userMessage,
          context,
          writer,
        });
        if (next) {
          session = next;
          writeSession(writer, session);
          ctx = await loadSessionContext({
            userId: actor.id,
            threadId,
            session,
            profile,
            answering,
          });
          context = await measureContext({ session, system: ctx.system, modelId, profile });
          writeContext(writer, context);
        }
      }

      answerSession = session;
      const stored = await appendMessage({
        userId: actor.id,
        threadId,
        sessionId: session.id,
        message: {
          id: assistantId,
          role: "assistant",
          parts: [],
          status: "partial",
          model: modelId,
        },
      });
      assistantSeq = stored.seq;
      const metadata: MessageMetadata = {
        seq: stored.seq,
        sessionId: session.id,
        model: modelId,
        createdAt: stored.createdAt.toISOString(),
      };
      writer.write({
        type: "message-metadata",
        messageMetadata: { ...metadata, status: "partial" },
      });

      const result = streamText({
        model: modelFor(modelId),
        system: ctx.system,
        messages: await convertToModelMessages(ctx.history),
        abortSignal: signal,
        onFinish: (event) => {
          usage = event.totalUsage;
        },
        onError: () => {
          failed = true;
        },
      });
      // Forwarded chunk by chunk (not merged) so the closing context reading and the finish
      // chunk are guaranteed to follow the last text delta.
      let ended: "finished" | "aborted" | "failed" = "finished";
      for await (const chunk of result.toUIMessageStream<ChatMessage>({
        sendStart: false,
        sendFinish: false,
      })) {
        if (chunk.type === "abort") ended = "aborted";
        if (chunk.type === "error") ended = "failed";
        writer.write(chunk);
      }
      if (ended !== "finished" || failed) return;
      // After the step: what the context holds now (the reply included), for the meter.
      const reported = usage?.inputTokens ?? context.inputTokens;
      const replyTokens = usage?.outputTokens ?? 0;
      writeContext(writer, {
        ...context,
        inputTokens: reported + replyTokens,
        utilization: (reported + replyTokens) / context.contextWindow,
      });
      writer.write({ type: "finish", messageMetadata: { ...metadata, status: "complete" } });
    },
    onError: (error) => {
      failed = true;
      console.error("[baton] chat stream failed", error);
      return error instanceof BatonError ? error.message : "The model failed to answer. Try again.";
    },
    onFinish: async ({ responseMessage, isAborted }) => {
      if (assistantSeq === null) return; // failed before the answer started; nothing to store
      const status = isAborted ? "partial" : failed ? "error" : "complete";
      await updateMessage({
        userId: actor.id,
        threadId,
        id: assistantId,
        patch: {
          parts: responseMessage.parts,
          status,
          usage: usage
            ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }
            : null,
          tokenCount: messageTokenCount(responseMessage.parts, modelId),
        },
      });
      if (usage?.inputTokens !== undefined && !isAborted) {
        // The call's input covered everything stored before its answer.
        await recordSessionUsage({
          sessionId: answerSession.id,
          inputTokens: usage.inputTokens,
          coveredSeq: assistantSeq - 1,
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

function writeSession(writer: Writer, session: ChatSession) {
  writer.write({ type: "data-session", id: `session-${session.id}`, data: sessionPartOf(session) });
}

function writeContext(writer: Writer, context: ContextPart) {
  writer.write({ type: "data-context", data: context, transient: true });
}

async function reloadSession(actor: Actor, threadId: string, session: ChatSession) {
  return (await getCurrentSession({ userId: actor.id, threadId })) ?? session;
}

/** Waits out a reset another request runs; returns the session the message is answered in. */
async function sessionAfterWaiting(
  actor: Actor,
  threadId: string,
  from: ChatSession,
  messageIds: string[],
): Promise<ChatSession> {
  const reset = await waitForReset({ userId: actor.id, threadId, fromSession: from.number });
  const committed = reset ? await committedSessionOf(actor.id, reset) : null;
  if (!committed) return from; // cancelled or failed: answered in session N
  // A queued insert can land just after the commit moved the queue: move it too.
  await moveMessagesToSession({
    userId: actor.id,
    threadId,
    ids: messageIds,
    sessionId: committed.session.id,
  });
  return committed.session;
}

async function resetBeforeAnswer({
  actor,
  threadId,
  session,
  profile,
  modelId,
  model,
  userMessage,
  context,
  writer,
}: {
  actor: Actor;
  threadId: string;
  session: ChatSession;
  profile: Profile;
  modelId: string;
  model: LanguageModelV3;
  userMessage: Message;
  context: ContextPart;
  writer: Writer;
}): Promise<ChatSession | null> {
  const partId = `reset-${session.id}`;
  const outcome = await performReset({
    userId: actor.id,
    threadId,
    from: session,
    trigger: "threshold",
    profile,
    modelId,
    model,
    moveFromSeq: userMessage.seq,
    movedTokens: userMessage.tokenCount,
    contextTokens: context.inputTokens,
    contextWindow: context.contextWindow,
    utilization: context.utilization,
    emit: (part) => writer.write({ type: "data-context-reset", id: partId, data: part }),
  });
  if (outcome.kind === "committed") return outcome.session;
  if (outcome.kind === "busy") {
    // Another request is resetting this session: this message waits for it like a queued one.
    return sessionAfterWaiting(actor, threadId, session, [userMessage.id]);
  }
  return null;
}
