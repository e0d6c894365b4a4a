"use client";
// One tool call inside a reply: a compact row (tool, what it works on, status) that expands to
// the call's input and a preview of its result. A call waiting for approval is an approval card.
import * as Collapsible from "@radix-ui/react-collapsible";
import { useState } from "react";
import {
  type ApprovalDecision,
  STATUS_LABELS,
  type ToolPart,
  type ToolStatus,
  toolInputPreview,
  toolInputSummary,
  toolNameOf,
  toolPreviewOf,
  toolStatusOf,
} from "@/lib/chat/tool-view";
import { ApprovalCard } from "./approval-card";
import { PreviewBlock, StatusIcon } from "./tool-card-parts";

const STATUS_STYLES: Record<ToolStatus, string> = {
  running: "text-indigo-700 dark:text-indigo-300",
  awaiting_approval: "text-amber-800 dark:text-amber-300",
  approved: "text-indigo-700 dark:text-indigo-300",
  done: "text-emerald-700 dark:text-emerald-400",
  error: "text-red-700 dark:text-red-400",
  denied: "text-zinc-700 dark:text-zinc-300",
  stopped: "text-zinc-700 dark:text-zinc-300",
};

function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      className={`size-3 shrink-0 text-zinc-500 dark:text-zinc-400 transition-transform ${open ? "rotate-90" : ""}`}
    >
      <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.75" />
    </svg>
  );
}

const BODY_LABELS: Record<ToolStatus, string> = {
  running: "Result",
  awaiting_approval: "Result",
  approved: "Result",
  done: "Result",
  error: "Error",
  denied: "Reason",
  stopped: "Result",
};

/** The first line of an expanded card: how an answered call was decided, then its outcome. */
function outcomeLine(part: ToolPart, summary: string): string {
  if (!part.approval) return summary;
  if (part.state === "output-denied" || part.approval.approved === false) {
    // A denial the user did not give (a reset, a new message) says why in its reason.
    return part.approval.reason ? "Not run." : "You denied it: not run.";
  }
  return part.approval.approved === true ? `You approved it. ${summary}` : summary;
}

export function ToolCard({
  part,
  onApproval,
}: {
  part: ToolPart;
  /** Offered while the call can still be answered; absent on a read-only thread. */
  onApproval?: (approvalId: string, decision: ApprovalDecision) => void;
}) {
  const [open, setOpen] = useState(false);
  if (part.state === "approval-requested") {
    return <ApprovalCard part={part} onApproval={onApproval} />;
  }
  const name = toolNameOf(part);
  const status = toolStatusOf(part);
  const summary = toolInputSummary(part);
  const preview = open ? toolPreviewOf(part) : null;
  const input = open ? toolInputPreview(part) : null;
  return (
    <Collapsible.Root
      open={open}
      onOpenChange={setOpen}
      className="my-1.5 rounded-lg border border-zinc-200 bg-white text-sm dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="tool-card"
      data-tool={name}
      data-status={status}
    >
      <Collapsible.Trigger className="flex w-full min-w-0 items-center gap-2 rounded-lg px-2.5 py-1.5 text-left hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:hover:bg-zinc-800/60">
        <Chevron open={open} />
        <span className="shrink-0 font-mono text-xs font-medium text-zinc-900 dark:text-zinc-100">
          {name}
        </span>
        {summary ? (
          <span className="min-w-0 flex-1 truncate text-xs text-zinc-600 dark:text-zinc-400">
            {summary}
          </span>
        ) : (
          <span className="flex-1" />
        )}
        <span
          className={`flex shrink-0 items-center gap-1 text-xs font-medium ${STATUS_STYLES[status]}`}
          data-testid="tool-status"
        >
          <StatusIcon status={status} />
          {STATUS_LABELS[status]}
        </span>
      </Collapsible.Trigger>
      <Collapsible.Content className="space-y-2 border-t border-zinc-200 px-2.5 py-2 dark:border-zinc-800">
        {preview ? (
          <>
            <p
              className="text-xs text-zinc-700 dark:text-zinc-300"
              data-testid="tool-result-summary"
            >
              {outcomeLine(part, preview.summary)}
            </p>
            {input ? <PreviewBlock label="Input" text={input} /> : null}
            {preview.body ? <PreviewBlock label={BODY_LABELS[status]} text={preview.body} /> : null}
          </>
        ) : null}
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
