// One chat request: resolve the thread, model and profile, apply the request to the stored
// history (a new or edited user message, a regenerate, or an approval answer), then stream the
// run that answers it (lib/runs/loop.ts) as one AI SDK UI message stream.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ToolSet } from "ai";
import { BatonError } from "@/core/errors";
import type { StoredHook } from "@/db/queries/messages";
import { listSessionMessages } from "@/db/queries/messages";
import { claimRequest, claimStoredRequest } from "@/db/queries/run-claims";
import { getThreadWithSession } from "@/db/queries/sessions";
import { createThreadWithMessage, updateThread } from "@/db/queries/threads";
import { turnPreflight } from "@/db/queries/turn-preflight";
import type { ChatSession, Message, Run } from "@/db/schema";
import { agentModelId, resolveProfile } from "@/lib/agents/profiles";
import { defaultModelId, getLanguageModel, listConfiguredModels } from "@/lib/ai/providers";
import type { Actor } from "@/lib/auth/server";
import { approvalReplyOf } from "@/lib/chat/approval-request";
import { type ChatRequest, messageText, titleFromMessage } from "@/lib/chat/request";
import { writeTitleSoon } from "@/lib/chat/thread-title";
import { messageTokenCount } from "@/lib/context/message-tokens";
import { currentInstance } from "@/lib/runtime/instance";
import { claimApprovals } from "./approvals";
import { claimContinue } from "./continue";
import { streamRun } from "./loop";
import { draftHoldsSession, queuedReply } from "./queued-reply";
import { recoverThreadSoon } from "./recovery";
import { applyUserInput } from "./user-input";

export interface TurnDependencies {
  /** Resolves a model id to a model; tests wrap it to see the prompts a model receives. */
  languageModel?: (modelId: string) => LanguageModelV3;
  /** Tools the run offers besides the agent's own (tests give a run a tool they can watch). */
  tools?: ToolSet;
}

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

export async function runChatTurn({
  actor,
  request,
  signal,
  deps = {},
}: {
  actor: Actor;
  request: ChatRequest;
  /**
   * A server-side cancel. The route passes none: the HTTP request's signal must not end the
   * run (a closed tab is not a stop; POST /api/chat/{id}/stop is).
   */
  signal?: AbortSignal;
  deps?: TurnDependencies;
}): Promise<Response> {
  const threadId = request.id;
  const found = await getThreadWithSession({ userId: actor.id, threadId });
  const existing = found?.thread ?? null;
  // Writing to a thread takes over what a dead server left in it; this request's own run waits
  // for those answers first (see startRun in loop-start.ts).
  if (existing) recoverThreadSoon(actor.id, threadId, existing, found?.mayHoldOrphans);
  const modelId = resolveModel(request.model, existing?.model);
  const languageModel = deps.languageModel ?? ((id: string) => getLanguageModel(id));
  const approval =
    request.trigger === "submit-message" && request.message.role === "assistant"
      ? approvalReplyOf({ message: request.message, allowForSession: request.allowForSession })
      : null;
  const userMessage =
    request.trigger === "submit-message" && request.message.role === "user"
      ? request.message
      : null;

  // A new thread is created together with its first message, so a failed request leaves none.
  let created: Message | null = null;
  let createdSession: ChatSession | null = null;
  let profileId = existing?.profile ?? "default";
  if (!existing) {
    if (!userMessage) throw new BatonError("not_found:thread", "Thread not found.");
    // One the user lacks is a 400 on `profile`, and the thread is not created.
    profileId = (request.trigger === "submit-message" && request.profile) || "default";
    const made = await createThreadWithMessage({
      userId: actor.id,
      threadId,
      model: modelId,
      profile: profileId,
      title: titleFromMessage(messageText(userMessage.parts)),
      message: {
        id: userMessage.id,
        role: "user",
        parts: userMessage.parts,
        status: "complete",
        tokenCount: messageTokenCount(userMessage.parts, modelId),
      },
    });
    if (!made) throw new BatonError("not_found:thread", "Thread not found.");
    created = made.message;
    createdSession = made.session;
  } else if (existing.model !== modelId) {
    await updateThread({ userId: actor.id, threadId, model: modelId });
  }
  // Independent reads, sent together: each one waited for the last added a round trip before
  // the first token. (A thread made by this request is in the session it was made with; an
  // existing one in the newest session, read with it.)
  const [profile, instanceId] = await Promise.all([
    resolveProfile({ userId: actor.id, profileId }),
    currentInstance(),
  ]);
  const session = createdSession ?? found?.session;
  if (!session) throw new BatonError("not_found:thread", "Thread not found.");
  // Written while the first reply streams (from its first token on, so neither its redaction
  // nor its model call holds that token up), by the thread's model; the placeholder until then.
  const writeTitle =
    created && userMessage
      ? () =>
          writeTitleSoon({
            userId: actor.id,
            threadId,
            firstMessage: messageText(userMessage.parts),
            placeholder: titleFromMessage(messageText(userMessage.parts)),
            // The configured model itself, never a test's injected one: a title is bookkeeping,
            // and a scripted model's script is the conversation's.
            model: () => getLanguageModel(modelId),
          })
      : undefined;
  // The thread's agent may run on a model of its own.
  const agentModel = agentModelId(profile, modelId);
  const base = {
    actor,
    threadId,
    profile,
    modelId: agentModel,
    model: languageModel(agentModel),
    languageModel,
    threadModelId: modelId,
    signal,
    session,
    extraTools: deps.tools,
  };

  if (request.trigger === "continue-message") {
    const resumed = await claimContinue({
      userId: actor.id,
      threadId,
      messageId: request.messageId,
      modelId,
      instanceId,
    });
    return streamRun({
      ...base,
      request: resumed.request,
      queued: false,
      resume: { ...resumed, approvedCallIds: new Set(), mode: "continue" },
    });
  }

  if (approval) {
    const claimed = await claimApprovals({ userId: actor.id, threadId, modelId, reply: approval });
    const history = await listSessionMessages({
      userId: actor.id,
      threadId,
      sessionId: session.id,
    });
    const request = history.findLast((m) => m.role === "user" && m.seq < claimed.message.seq);
    if (!request) throw new BatonError("not_found:message", "There is no message to answer.");
    return streamRun({ ...base, request, queued: false, resume: claimed });
  }

  const input = userMessage
    ? ({ kind: "message", message: userMessage } as const)
    : ({ kind: "regenerate" } as const);
  // A thread this request made has no draft and no reset yet. A draft past its time ends first
  // (what waited for it is answered), and the thread is asked again.
  const holds = created
    ? null
    : await turnPreflight({ userId: actor.id, threadId, messageId: userMessage?.id });
  const heldByDraft = holds?.draftDue
    ? await draftHoldsSession(actor.id, threadId, session.number)
    : holds?.draftFrom === session.number;
  // A message sent while a draft awaits review waits for the user's decision, not this request.
  if (heldByDraft) {
    const stored = await applyUserInput(actor, threadId, input, session, modelId, true, holds);
    return queuedReply(stored.id);
  }

  // A message sent while a reset runs is stored at once as queued, and answered after it.
  const queued = holds?.resetFrom === session.number;
  // The run claims its request, so a recovering server never answers it a second time: in the
  // transaction that stores a new message, or else (an edit, a regenerate, a new thread) after.
  let claimed: Run | null = null;
  const claimStored: StoredHook = async (tx, row) => {
    claimed = await claimStoredRequest(tx, {
      userId: actor.id,
      threadId,
      request: row,
      maxSteps: profile.maxSteps,
      instanceId,
    });
  };
  const request_ =
    created ??
    (await applyUserInput(actor, threadId, input, session, modelId, queued, holds, claimStored));
  claimed ??= await claimRequest({
    userId: actor.id,
    threadId,
    requestId: request_.id,
    maxSteps: profile.maxSteps,
    instanceId,
  });
  if (!claimed) {
    throw new BatonError("conflict:message", "This message is already being answered.");
  }
  return streamRun({
    ...base,
    request: request_,
    queued,
    claimed,
    fresh: created !== null,
    afterFirstText: writeTitle,
  });
}
