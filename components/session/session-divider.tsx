"use client";
// The boundary between two sessions: who started the new one and why, how the reset went, with
// the handoff it started from (for an agent handoff, "<from> → <to>" and the brief); while a reset
// runs, a placeholder that can cancel it, and while its handoff waits for review, the editor. A
// continued thread's session 1 opens with the stored handoff it continues; a reset that failed on
// its pins stands in the session it left alone.
import { memo } from "react";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import type { SessionDividerItem } from "@/lib/chat/format-messages";
import type { SessionTrigger } from "@/lib/chat/types";
import { AgentBriefCard } from "./agent-brief";
import { DraftReviewRow } from "./draft-editor";
import { FailedResetCard } from "./failed-reset";
import { HandoffSummary } from "./handoff-summary";
import { ResetDetailsLine } from "./reset-details";

const TRIGGER_LABELS: Record<SessionTrigger, string> = {
  initial: "new thread",
  threshold: "context threshold reached",
  manual: "started manually",
  agent_handoff: "agent transfer",
  continuation: "continued from a handoff",
};

function triggerLabel(trigger: SessionTrigger): string {
  return TRIGGER_LABELS[trigger] ?? trigger;
}

function Rule() {
  return <div aria-hidden="true" className="h-px flex-1 bg-zinc-200 dark:bg-zinc-800" />;
}

// Memoized: the message list renders again on every scroll frame (components/chat/message-list.tsx).
export const SessionDivider = memo(function SessionDivider({
  item,
  onCancelReset,
  cancelling = false,
}: {
  item: SessionDividerItem;
  /** Offered on a live placeholder; absent where nothing may change (a shared thread). */
  onCancelReset?: (fromSession: number) => void;
  cancelling?: boolean;
}) {
  const { sessionNumber, session, live, agentHandoff, failed } = item;
  if (failed) return <FailedResetCard failed={failed} sessionNumber={sessionNumber} />;
  if (live?.event === "awaiting_review") return <DraftReviewRow sessionNumber={sessionNumber} />;
  if (live) {
    return (
      <div
        className="px-4 py-3"
        data-testid="reset-placeholder"
        data-session-number={sessionNumber}
      >
        <div
          role="status"
          className="flex flex-wrap items-center gap-3 rounded-xl border border-dashed border-indigo-300 bg-indigo-50 px-3 py-2 text-sm text-indigo-900 dark:border-indigo-800 dark:bg-indigo-950 dark:text-indigo-100"
        >
          <span
            aria-hidden="true"
            className="size-3 animate-spin rounded-full border-2 border-indigo-400 border-t-transparent"
          />
          <span className="flex-1">
            Resetting context… writing a handoff so session {sessionNumber} can continue.
            {live.event === "input_blocked" ? " Messages you send now are queued." : ""}
          </span>
          {onCancelReset ? (
            <Button
              size="sm"
              variant="secondary"
              disabled={cancelling}
              onClick={() => onCancelReset(sessionNumber - 1)}
            >
              {cancelling ? "Cancelling…" : "Cancel reset"}
            </Button>
          ) : null}
        </div>
      </div>
    );
  }
  const startedAt = session.startedAt ? (
    <span className="font-normal text-zinc-600 dark:text-zinc-400">
      {" · "}
      <RelativeTime iso={session.startedAt} />
    </span>
  ) : null;
  const details = [session.model || null, triggerLabel(session.trigger)].filter(Boolean);
  // A shared thread's card has no key: it names the handoff without it.
  const continued =
    session.trigger === "continuation" && session.handoff
      ? `Continued from ${session.handoff.key || "a handoff"} · revision ${session.handoff.revision}`
      : null;
  return (
    <div
      className="px-4 py-4"
      data-testid="session-divider"
      data-session-number={sessionNumber}
      data-trigger={session.trigger || undefined}
    >
      <div className="flex items-center gap-3">
        <Rule />
        {agentHandoff ? (
          <h2 className="min-w-0 break-words text-center text-sm font-semibold text-zinc-800 dark:text-zinc-200">
            {agentHandoff.from.name} → {agentHandoff.to.name}
            {startedAt}
          </h2>
        ) : continued ? (
          <h2
            className="min-w-0 break-words text-center text-sm font-semibold text-zinc-800 dark:text-zinc-200"
            data-testid="continued-from"
          >
            {continued}
            {startedAt}
          </h2>
        ) : (
          <h2 className="text-sm font-semibold text-zinc-800 dark:text-zinc-200">
            Session {sessionNumber} started
            {startedAt}
          </h2>
        )}
        <Rule />
      </div>
      {agentHandoff?.reason ? (
        <p
          className="mx-auto mt-1 max-w-2xl break-words text-center text-sm text-zinc-700 dark:text-zinc-300"
          data-testid="handoff-reason"
        >
          {agentHandoff.reason}
        </p>
      ) : null}
      <p className="mt-1 text-center text-xs text-zinc-600 dark:text-zinc-400">
        {(agentHandoff || continued ? [`Session ${sessionNumber}`, ...details] : details).join(
          " · ",
        )}
      </p>
      {session.reset ? <ResetDetailsLine reset={session.reset} /> : null}
      <div className="mx-auto mt-2 max-w-2xl">
        {session.handoff && (agentHandoff || session.handoff.kind === "agent_handoff") ? (
          <AgentBriefCard handoff={session.handoff} sessionNumber={sessionNumber} />
        ) : session.handoff ? (
          <HandoffSummary handoff={session.handoff} sessionNumber={sessionNumber} />
        ) : (
          <p className="text-center text-xs italic text-zinc-600 dark:text-zinc-400">
            No handoff recorded for this session.
          </p>
        )}
      </div>
    </div>
  );
});
