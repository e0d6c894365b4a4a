"use client";
// A tool call that waits for the user's approval: what it would do, and Approve, Allow for this
// session and Deny. The answer goes back through the chat (useChat's addToolApprovalResponse);
// once given, the call's card shows the outcome. Read-only views show only that it waits.
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import {
  type ApprovalDecision,
  type ToolPart,
  toolInputPreview,
  toolInputSummary,
  toolNameOf,
} from "@/lib/chat/tool-view";
import { PreviewBlock, StatusIcon } from "./tool-card-parts";

export function ApprovalCard({
  part,
  onApproval,
}: {
  part: Extract<ToolPart, { state: "approval-requested" }>;
  /** Absent where the call cannot be answered (a shared thread, or while a reply streams). */
  onApproval?: (approvalId: string, decision: ApprovalDecision) => void;
}) {
  const [sent, setSent] = useState<ApprovalDecision | null>(null);
  const titleId = useId();
  const name = toolNameOf(part);
  const summary = toolInputSummary(part);
  const input = toolInputPreview(part);
  const answer = (decision: ApprovalDecision) => {
    if (!onApproval || sent) return;
    setSent(decision);
    onApproval(part.approval.id, decision);
  };
  return (
    <section
      aria-labelledby={titleId}
      className="my-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40"
      data-testid="approval-card"
      data-tool={name}
      data-status="awaiting_approval"
    >
      <h3
        id={titleId}
        className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 font-medium text-amber-900 dark:text-amber-100"
      >
        <StatusIcon status="awaiting_approval" />
        <span>Approve</span>
        <span className="font-mono text-xs">{name}</span>
        {summary ? <span className="min-w-0 break-all font-normal">{summary}</span> : null}
        <span className="sr-only">?</span>
      </h3>
      <p className="mt-1 text-xs text-amber-900 dark:text-amber-200">
        {onApproval
          ? "The agent asks before running this tool. Nothing happens until you answer."
          : "Waiting for approval: the tool has not run."}
      </p>
      {input ? (
        <div className="mt-2">
          <PreviewBlock label="Input" text={input} />
        </div>
      ) : null}
      {onApproval ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button
            variant="primary"
            size="md"
            disabled={sent !== null}
            onClick={() => answer("approve")}
          >
            {sent === "approve" ? "Approving…" : "Approve"}
          </Button>
          <Button
            variant="secondary"
            size="md"
            disabled={sent !== null}
            onClick={() => answer("allow_session")}
            title={`Run ${name} without asking again until this session ends`}
          >
            {sent === "allow_session" ? "Allowing…" : "Allow for this session"}
          </Button>
          <Button
            variant="secondary"
            size="md"
            disabled={sent !== null}
            onClick={() => answer("deny")}
          >
            {sent === "deny" ? "Denying…" : "Deny"}
          </Button>
        </div>
      ) : null}
    </section>
  );
}
