"use client";
// The run timeline of one reply: a "Timeline" button under it opens a modal <dialog> showing
// who handled what, in order — one section per agent invocation with its tool calls, approvals,
// handoffs and resets, the time each took and the tokens reported (docs/journal.md). The
// browser's modal dialog traps focus and closes on Escape; focus goes back to the button.
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LoadingState } from "@/components/ui/loading-state";
import type { RunEventsResponse } from "@/lib/agents/journal-schemas";
import {
  type AgentNames,
  agentName,
  formatDuration,
  formatOffset,
  type TimelineEvent,
  type TimelineGroup,
  timelineGroups,
} from "@/lib/chat/run-timeline";
import { fetchAgentNames, fetchReplyJournal } from "./run-api";

/** The reply whose run to show: the user message it answers, in its thread. */
export interface RunTimelineTarget {
  threadId: string;
  requestMessageId: string;
}

type Load =
  | { state: "loading" }
  | { state: "empty" }
  | { state: "error"; message: string }
  | { state: "ready"; journal: RunEventsResponse; names: AgentNames };

export function RunTimelineButton({ threadId, requestMessageId }: RunTimelineTarget) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        data-testid="run-timeline-button"
      >
        Timeline
      </button>
      {open ? (
        <RunTimelineDialog
          threadId={threadId}
          requestMessageId={requestMessageId}
          onClose={() => {
            setOpen(false);
            buttonRef.current?.focus();
          }}
        />
      ) : null}
    </>
  );
}

/** The reply's journal with the agents' names; `reload` asks again (Try again). */
function useReplyJournal(threadId: string, requestMessageId: string) {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const controllerRef = useRef<AbortController | null>(null);
  const reload = useCallback(() => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    setLoad({ state: "loading" });
    Promise.all([
      fetchReplyJournal(threadId, requestMessageId, controller.signal),
      fetchAgentNames(controller.signal),
    ])
      .then(([journal, names]) => {
        if (controller.signal.aborted) return;
        setLoad(
          journal && journal.events.length > 0
            ? { state: "ready", journal, names }
            : { state: "empty" },
        );
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({
          state: "error",
          message: error instanceof Error ? error.message : "Couldn't load the journal.",
        });
      });
  }, [threadId, requestMessageId]);
  useEffect(() => {
    reload();
    return () => controllerRef.current?.abort();
  }, [reload]);
  return { load, reload };
}

function RunTimelineDialog({
  threadId,
  requestMessageId,
  onClose,
}: RunTimelineTarget & { onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const { load, reload } = useReplyJournal(threadId, requestMessageId);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid="run-timeline"
      className="m-auto max-h-[min(44rem,calc(100dvh-2rem))] w-[min(40rem,calc(100vw-1rem))] flex-col rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/50 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100 open:flex"
    >
      <header className="flex items-start gap-3 border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="font-semibold text-base">
            Run timeline
          </h2>
          {load.state === "ready" ? <RunLine journal={load.journal} /> : null}
        </div>
        <Button
          ref={closeRef}
          size="sm"
          variant="ghost"
          onClick={() => dialogRef.current?.close()}
          aria-label="Close timeline"
        >
          Close
        </Button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3 text-sm">
        {load.state === "loading" ? (
          <LoadingState label="Loading the journal…" />
        ) : load.state === "empty" ? (
          <EmptyState data-testid="run-timeline-empty">No journal for this reply.</EmptyState>
        ) : load.state === "error" ? (
          <Alert
            onRetry={() => {
              // The button goes with the error it answers: keep focus in the dialog.
              closeRef.current?.focus();
              reload();
            }}
          >
            {load.message}
          </Alert>
        ) : (
          <Timeline journal={load.journal} names={load.names} />
        )}
      </div>
    </dialog>
  );
}

const STATUS_LABELS: Record<string, string> = {
  running: "Running",
  awaiting_approval: "Waiting for approval",
  completed: "Completed",
  failed: "Failed",
  stopped: "Stopped",
  step_limit: "Stopped at the step limit",
  reset_failed: "Reset failed",
  interrupted: "Interrupted",
};

function RunLine({ journal }: { journal: RunEventsResponse }) {
  const { run } = journal;
  const took = run.endedAt ? Date.parse(run.endedAt) - Date.parse(run.startedAt) : null;
  const parts = [
    STATUS_LABELS[run.status] ?? run.status,
    `${run.stepCount} ${run.stepCount === 1 ? "step" : "steps"}`,
    took !== null && took >= 0 ? formatDuration(took) : null,
  ].filter((p): p is string => p !== null);
  return (
    <p className="text-xs text-zinc-600 dark:text-zinc-400">
      {parts.join(" · ")} ·{" "}
      <time dateTime={run.startedAt}>{new Date(run.startedAt).toLocaleString()}</time>
    </p>
  );
}

function Timeline({ journal, names }: { journal: RunEventsResponse; names: AgentNames }) {
  const groups = timelineGroups(journal.events, names);
  const start = Date.parse(journal.events[0]?.at ?? journal.run.startedAt);
  return (
    <div className="space-y-4">
      {groups.map((group) => (
        <InvocationSection key={group.key} group={group} names={names} start={start} />
      ))}
    </div>
  );
}

function InvocationSection({
  group,
  names,
  start,
}: {
  group: TimelineGroup;
  names: AgentNames;
  start: number;
}) {
  const headingId = useId();
  const title = group.agent ? agentName(group.agent, names) : "Run";
  return (
    <section
      aria-labelledby={headingId}
      data-testid="timeline-group"
      data-agent={group.agent ?? ""}
    >
      <h3 id={headingId} className="flex flex-wrap items-baseline gap-x-2 font-medium">
        <span className="break-words">{title}</span>
        {group.agent && title !== group.agent ? (
          <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400">{group.agent}</span>
        ) : null}
        {group.durationMs !== null ? (
          <span className="text-xs font-normal text-zinc-500 dark:text-zinc-400">
            {formatDuration(group.durationMs)}
          </span>
        ) : null}
      </h3>
      <ol className="mt-1.5 space-y-1 border-l border-zinc-200 pl-3 dark:border-zinc-700">
        {group.events.map((item) => (
          <EventRow key={item.event.seq} item={item} start={start} />
        ))}
      </ol>
    </section>
  );
}

const TONES: Record<string, string> = {
  agent_handoff_accepted: "text-indigo-700 dark:text-indigo-300",
  agent_handoff_requested: "text-indigo-700 dark:text-indigo-300",
  agent_handoff_denied: "text-amber-800 dark:text-amber-300",
  approval_requested: "text-amber-800 dark:text-amber-300",
  reset_committed: "text-sky-700 dark:text-sky-300",
  reset_failed: "text-red-700 dark:text-red-400",
  run_failed: "text-red-700 dark:text-red-400",
  run_completed: "text-emerald-700 dark:text-emerald-400",
};

function EventRow({ item, start }: { item: TimelineEvent; start: number }) {
  const { event } = item;
  const offset = Date.parse(event.at) - start;
  const tokens = [
    item.inputTokens !== null ? `${item.inputTokens.toLocaleString()} in` : null,
    item.outputTokens !== null ? `${item.outputTokens.toLocaleString()} out` : null,
  ].filter((t): t is string => t !== null);
  const failed = event.type === "tool_result" && item.title.endsWith(" failed");
  const tone = failed ? "text-red-700 dark:text-red-400" : (TONES[event.type] ?? "");
  return (
    <li
      data-testid="timeline-event"
      data-type={event.type}
      className="grid min-w-0 grid-cols-[4.5rem_minmax(0,1fr)] gap-x-2"
    >
      <time
        dateTime={event.at}
        title={new Date(event.at).toLocaleString()}
        className="text-right font-mono text-xs leading-5 text-zinc-500 dark:text-zinc-400 tabular-nums"
      >
        {formatOffset(Math.max(0, offset))}
      </time>
      <div className="min-w-0">
        <p className="flex flex-wrap items-baseline gap-x-2">
          <span className={`min-w-0 break-words ${tone}`}>{item.title}</span>
          {item.tookMs !== null ? (
            <span className="text-xs text-zinc-500 dark:text-zinc-400">
              took {formatDuration(item.tookMs)}
            </span>
          ) : null}
          {tokens.length > 0 ? (
            <span
              className="text-xs text-zinc-500 dark:text-zinc-400"
              data-testid="timeline-tokens"
            >
              {tokens.join(" · ")} tokens
            </span>
          ) : null}
        </p>
        {item.detail ? (
          <p className="break-words text-xs text-zinc-600 dark:text-zinc-400">{item.detail}</p>
        ) : null}
        {event.payload.truncated === true ? (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">(details shortened)</p>
        ) : null}
      </div>
    </li>
  );
}
