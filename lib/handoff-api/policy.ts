// The handoff API's policy over the store, each in one transaction: an upsert keeps the record's
// envelope and refuses a live thread's own key; an acceptance answers a retry with its first
// receipt and refuses a cancelled handoff; a cancel.
import "server-only";
import { BatonError } from "@/core/errors";
import { getDb } from "@/db/client";
import { cancelHandoff } from "@/db/queries/handoff-groom";
import type { HandoffWithRevision } from "@/db/queries/handoff-reads";
import { findReceipt, type HandoffWriteResult, lockHandoff } from "@/db/queries/handoff-writes";
import type { HandoffReceipt } from "@/db/schema";
import {
  acceptHandoff,
  type HandoffWrite,
  redactedReceiver,
  writeHandoff,
} from "@/lib/handoff/write";

/**
 * An upsert from the API: `writeHandoff` with the record's envelope kept where the caller left it
 * out (project, repo, kind). A live thread's own key is refused: its resets write revision N from
 * session N, so a revision written beside them would make the thread's next reset stale.
 */
export async function writeApiHandoff(
  input: Omit<HandoffWrite, "project" | "repo" | "kind" | "threadId" | "sessionNumber"> & {
    project?: string | null;
    repo?: string | null;
    kind?: string;
    defaultKind: string;
    /** A kind the API never writes by default (a reset's), replaced by `defaultKind`. */
    reservedKind: string;
  },
): Promise<HandoffWriteResult> {
  return getDb().transaction(async (tx) => {
    const current = await lockHandoff(tx, { ownerId: input.ownerId, key: input.key });
    if (current?.threadId) {
      throw new BatonError(
        "conflict:thread_handoff",
        "This key belongs to a conversation whose resets write it; write under another key.",
      );
    }
    const keptKind = current && current.kind !== input.reservedKind ? current.kind : undefined;
    return writeHandoff(tx, {
      ...input,
      project: input.project === undefined ? (current?.project ?? null) : input.project,
      repo: input.repo === undefined ? (current?.repo ?? null) : input.repo,
      kind: input.kind ?? keptKind ?? input.defaultKind,
      threadId: null,
      sessionNumber: null,
    });
  });
}

/**
 * Acceptance from the API. A retry finds its receipt before anything else, so it is answered
 * the same even after the handoff was cancelled or superseded; a first acceptance of a cancelled
 * handoff is `conflict:handoff_cancelled`.
 */
export async function acceptApiHandoff({
  ownerId,
  key,
  contentId,
  receiver: unredactedReceiver,
}: {
  ownerId: string;
  key: string;
  contentId: string;
  receiver: string;
}): Promise<{ receipt: HandoffReceipt; created: boolean }> {
  const receiver = redactedReceiver(unredactedReceiver);
  return getDb().transaction(async (tx) => {
    const current = await lockHandoff(tx, { ownerId, key });
    if (!current) throw new BatonError("not_found:handoff", "Handoff not found.");
    const existing = await findReceipt(tx, { handoffId: current.id, contentId, receiver });
    if (existing) return { receipt: existing, created: false };
    if (current.state === "cancelled") {
      throw new BatonError("conflict:handoff_cancelled", "That handoff was cancelled.");
    }
    const { receipt, created } = await acceptHandoff(tx, { ownerId, key, contentId, receiver });
    return { receipt, created };
  });
}

export async function cancelApiHandoff(input: {
  ownerId: string;
  key: string;
  contentId?: string;
}): Promise<HandoffWithRevision | null> {
  return getDb().transaction((tx) => cancelHandoff(tx, input));
}
