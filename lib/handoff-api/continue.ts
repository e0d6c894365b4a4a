// "Continue where you left off": a new thread whose session 1 (trigger `continuation`) starts
// from a stored handoff's brief. Nothing is sent and nothing runs until the user writes.
import "server-only";
import { randomUUID } from "node:crypto";
import { BatonError } from "@/core/errors";
import { startContinuationThread } from "@/db/queries/continuations";
import { getHandoffWithRevision } from "@/db/queries/handoff-reads";
import { defaultModelId, listConfiguredModels } from "@/lib/ai/providers";
import { titleFromMessage } from "@/lib/chat/request";
import { type ApiIdentity, requireScope } from "./identity";

export async function continueFromHandoff(
  identity: ApiIdentity,
  {
    key,
    id,
    threadId = randomUUID(),
    model,
  }: { key: string; id?: string; threadId?: string; model?: string },
): Promise<{ threadId: string; created: boolean }> {
  requireScope(identity, "write");
  const current = await getHandoffWithRevision({ ownerId: identity.userId, key });
  if (!current) throw new BatonError("not_found:handoff", "Handoff not found.");
  const goal = current.revision.artifact.goal;
  if (model !== undefined && !listConfiguredModels().some((m) => m.id === model)) {
    throw new BatonError("bad_request:body", "That model is not configured.", {
      model: ["Choose one of the configured models."],
    });
  }
  return startContinuationThread({
    ownerId: identity.userId,
    key,
    contentId: id,
    threadId,
    sessionId: randomUUID(),
    title: titleFromMessage(typeof goal === "string" && goal.trim() ? goal : key),
    model: model ?? defaultModelId(),
    profile: "default",
  });
}
