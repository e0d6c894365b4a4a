// A stored reset draft as the API shows it (DraftView): the artifact parsed, so extra keys and
// the reset's measurements never leave the server.
import type { ResetDraft } from "@/db/schema";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import type { DraftView } from "./types";

export function draftViewOf(draft: ResetDraft): DraftView {
  return {
    threadId: draft.threadId,
    fromSession: draft.fromSession,
    trigger: draft.trigger,
    state: draft.state,
    artifact: handoffArtifactSchema.parse(draft.artifact),
    dropped: draft.dropped.map((d) => ({ field: d.field, item: d.item })),
    source: draft.source,
    createdAt: draft.createdAt.toISOString(),
    expiresAt: draft.expiresAt.toISOString(),
  };
}
