// What a chat request does to the stored history before a run answers it: store a new user
// message (queued while a reset runs), replace the latest one (edit-and-resend), or drop the
// last reply (regenerate). An open approval is denied first: the user moved on without it.
import "server-only";
import { BatonError } from "@/core/errors";
import {
  appendMessage,
  getMessage,
  listSessionMessages,
  type StoredHook,
  updateMessage,
} from "@/db/queries/messages";
import { deleteAnswerUnlessLive } from "@/db/queries/run-claims";
import { answerSpansSessions } from "@/db/queries/runs";
import type { TurnPreflight } from "@/db/queries/turn-preflight";
import type { ChatSession, Message } from "@/db/schema";
import type { Actor } from "@/lib/auth/server";
import type { UserMessageInput } from "@/lib/chat/request";
import { messageTokenCount } from "@/lib/context/message-tokens";
import { countQueuedMessage } from "@/lib/metrics";
import { denyUnansweredApprovals } from "./approvals";

export type UserInput = { kind: "message"; message: UserMessageInput } | { kind: "regenerate" };

export async function applyUserInput(
  actor: Actor,
  threadId: string,
  input: UserInput,
  session: ChatSession,
  model: string,
  queued: boolean,
  /** What the turn's preflight read already answered (see turnPreflight). */
  known?: Pick<TurnPreflight, "awaitingApproval" | "messageStored"> | null,
  /** Run in the transaction that stores a new message (not for an edit or a regenerate). */
  onStored?: StoredHook,
): Promise<Message> {
  const moveOn = () =>
    known?.awaitingApproval === false
      ? Promise.resolve()
      : denyUnansweredApprovals({ userId: actor.id, threadId, modelId: model });
  if (input.kind === "message") {
    const { message } = input;
    const existing =
      known?.messageStored === false
        ? null
        : await getMessage({ userId: actor.id, threadId, id: message.id });
    if (existing) {
      await assertEditable(actor, threadId, session, existing, queued);
      await moveOn();
      await deleteAnswer(actor, threadId, existing);
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
    await moveOn();
    const stored = await appendMessage({
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
      onStored,
    });
    if (queued) countQueuedMessage();
    return stored;
  }
  if (queued) {
    throw new BatonError("conflict:reset_in_progress", "Wait for the context reset to finish.");
  }
  // Regenerate: drop the last reply (and anything after it) and answer the last user message.
  const history = await listSessionMessages({ userId: actor.id, threadId, sessionId: session.id });
  const lastUser = history.findLast((m) => m.role === "user");
  if (!lastUser) throw new BatonError("not_found:message", "There is no message to answer.");
  await assertSingleSessionAnswer(actor, threadId, lastUser);
  await moveOn();
  await deleteAnswer(actor, threadId, lastUser);
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
  await assertSingleSessionAnswer(actor, threadId, existing);
}

/**
 * An edit or a regenerate deletes a message's answer for the new run to write again, and is
 * refused while a run still writes it: deleting the reply while it streams would lose it, and the
 * new run's claim would be refused anyway. (An answer parked on an approval was ended by `moveOn`
 * just before.)
 */
async function deleteAnswer(actor: Actor, threadId: string, request: Message): Promise<void> {
  if (!(await deleteAnswerUnlessLive({ userId: actor.id, threadId, request }))) {
    throw new BatonError(
      "conflict:message",
      "This message is still being answered. Stop the reply first, then edit or regenerate it.",
    );
  }
}

/**
 * A message whose answer ran across a reset cannot be edited or regenerated: part of the answer
 * lives in an ended session, and the files it wrote stay written (the workspace is not rolled
 * back).
 */
async function assertSingleSessionAnswer(actor: Actor, threadId: string, message: Message) {
  const spans = await answerSpansSessions({
    userId: actor.id,
    threadId,
    seq: message.seq,
    sessionId: message.sessionId,
  });
  if (spans) {
    throw new BatonError(
      "conflict:message",
      "This message's answer continued after a context reset, so it can no longer be edited or regenerated. Send a new message instead.",
    );
  }
}
