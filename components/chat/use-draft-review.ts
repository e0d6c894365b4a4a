"use client";
// The drafted handoff waiting for the user's review: where it came from (the page's data, the
// reset button's 202 answer, a re-read after a stream stopped at it), the user's edits to it —
// held here, above the virtualized list, so they survive its row scrolling out — and the two
// ways out: commit ("Start new session") and cancel ("Keep this session").
import { useCallback, useRef, useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { ApiError, post } from "@/lib/api/client";
import { applyDraftEdit, type DraftEdit, draftFieldErrors } from "@/lib/chat/draft-edits";
import type { DraftView } from "@/lib/chat/types";
import type { HandoffArtifact } from "@/lib/handoff/artifact";

const committed = z.object({ session: z.object({ number: z.number() }) });
const cancelled = z.object({ cancelled: z.literal(true), fromSession: z.number() });

/** The draft as the user is editing it. */
interface Editing {
  draft: DraftView;
  artifact: HandoffArtifact;
}

/** Two readings are the same draft when they wait on the same reset and were written together. */
function draftKey(draft: DraftView): string {
  return `${draft.threadId}:${draft.fromSession}:${draft.createdAt}`;
}

export type DraftReview = ReturnType<typeof useDraftReview>;

export function useDraftReview({
  threadId,
  initialDraft,
  refresh,
  onSettled,
}: {
  threadId: string;
  initialDraft: DraftView | null;
  /** Re-reads the thread: the new session's divider (or the kept session) replaces the editor. */
  refresh: () => Promise<void>;
  /** Called once the draft was committed or cancelled. */
  onSettled: () => void;
}) {
  const [editing, setEditing] = useState<Editing | null>(() =>
    initialDraft ? { draft: initialDraft, artifact: initialDraft.artifact } : null,
  );
  const [pending, setPending] = useState<"commit" | "cancel" | null>(null);
  const [errors, setErrors] = useState<ReturnType<typeof draftFieldErrors> | null>(null);
  // Resets this tab committed or cancelled: a re-read that began before that answered may still
  // list their draft, and must not bring the editor back.
  const ended = useRef(new Set<string>());

  /** What the server says awaits now: a new draft opens, the same one keeps the user's edits. */
  const showDraft = useCallback((draft: DraftView | null) => {
    setEditing((current) => {
      if (!draft || ended.current.has(draftKey(draft))) return null;
      if (current && draftKey(current.draft) === draftKey(draft)) return { ...current, draft };
      return { draft, artifact: draft.artifact };
    });
    if (!draft) setErrors(null);
  }, []);

  const edit = useCallback((change: DraftEdit) => {
    setEditing((current) =>
      current ? { ...current, artifact: applyDraftEdit(current.artifact, change) } : current,
    );
  }, []);

  const finish = useCallback(
    async (draft: DraftView) => {
      ended.current.add(draftKey(draft));
      setEditing(null);
      setErrors(null);
      await refresh().catch(() => undefined);
      onSettled();
    },
    [refresh, onSettled],
  );

  const commit = useCallback(async () => {
    if (!editing || pending) return;
    const { fromSession } = editing.draft;
    setPending("commit");
    setErrors(null);
    try {
      const body = await post(
        `/api/threads/${threadId}/reset/commit`,
        { fromSession, draft: editing.artifact },
        committed,
      );
      toast(`Session ${body.session.number} started — context was reset`);
      await finish(editing.draft);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        setErrors(draftFieldErrors(error.fields));
        toast.error(`The handoff was not saved: ${error.message}`);
      } else if (error instanceof ApiError && error.status === 409) {
        // Committed or cancelled elsewhere (another tab), or expired: show what the thread holds.
        toast(error.message);
        await finish(editing.draft);
      } else if (error instanceof ApiError && error.status > 0) {
        setErrors({ byField: {}, other: [error.message] });
        toast.error(`Could not start the new session: ${error.message}`);
      } else {
        toast.error("Could not reach the server to start the new session.");
      }
    } finally {
      setPending(null);
    }
  }, [editing, pending, threadId, finish]);

  const cancel = useCallback(async () => {
    if (!editing || pending) return;
    const { fromSession } = editing.draft;
    setPending("cancel");
    try {
      await post(`/api/threads/${threadId}/reset/cancel`, { fromSession }, cancelled);
      toast(`Context reset cancelled — continuing in session ${fromSession}`);
      await finish(editing.draft);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        toast(error.message);
        await finish(editing.draft);
      } else if (error instanceof ApiError && error.status > 0) {
        toast.error(`Could not keep this session: ${error.message}`);
      } else {
        toast.error("Could not reach the server to keep this session.");
      }
    } finally {
      setPending(null);
    }
  }, [editing, pending, threadId, finish]);

  return {
    draft: editing?.draft ?? null,
    artifact: editing?.artifact ?? null,
    errors,
    pending,
    showDraft,
    edit,
    commit,
    cancel,
  };
}
