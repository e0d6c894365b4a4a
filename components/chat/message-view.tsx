"use client";
// One message row: user bubbles, assistant replies (streamed markdown with the reply's tool calls
// as cards, in the order they happened), the agent and model that wrote it, and the status a
// reader needs (stopped, failed, interrupted, queued, answering) with the actions that apply.
import { memo } from "react";
import { Streamdown } from "streamdown";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { rehypePluginsFor } from "@/lib/chat/markdown-plugins";
import { replyNotice } from "@/lib/chat/reply-notice";
import { type ApprovalDecision, isToolPart, type ToolPart } from "@/lib/chat/tool-view";
import type { ChatMessage } from "@/lib/chat/types";
import { CopyReplyButton } from "./copy-reply-button";
import { messageMarkdownComponents } from "./markdown-components";
import { RunTimelineButton, type RunTimelineTarget } from "./run-timeline";
import { ToolCard } from "./tool-card";

export interface MessageActions {
  onRetry?: () => void;
  onRegenerate?: () => void;
  onEdit?: () => void;
  /** Continues an interrupted reply where the server stopped writing it. */
  onContinue?: () => void;
  /** Answers a tool call waiting for approval in this message. */
  onApproval?: (approvalId: string, decision: ApprovalDecision) => void;
  /** The run journal of this reply (absent where it cannot be looked up: a shared thread). */
  timeline?: RunTimelineTarget;
}

function textOf(message: ChatMessage): string {
  return message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
}

type Block =
  | { kind: "text"; key: string; text: string }
  | { kind: "tool"; key: string; part: ToolPart };

/** Consecutive text parts as one markdown block; each tool call a block of its own. */
function blocksOf(message: ChatMessage): Block[] {
  const blocks: Block[] = [];
  for (const [i, part] of message.parts.entries()) {
    if (part.type === "text") {
      const last = blocks.at(-1);
      if (last?.kind === "text") last.text += part.text;
      else blocks.push({ kind: "text", key: `text-${i}`, text: part.text });
    } else if (isToolPart(part)) {
      blocks.push({ kind: "tool", key: `tool-${part.toolCallId}`, part });
    }
  }
  return blocks.filter((b) => b.kind === "tool" || b.text.length > 0);
}

export const MessageView = memo(function MessageView({
  message,
  streaming,
  stopped,
  failed,
  answering = false,
  waitingOnReset = false,
  queuedNote,
  agentName,
  actions,
}: {
  message: ChatMessage;
  streaming: boolean;
  stopped: boolean;
  failed: boolean;
  /** The server is answering this question, or writing this reply, on its own. */
  answering?: boolean;
  /** A context reset is running: its divider is the one wait indicator, not "Thinking…". */
  waitingOnReset?: boolean;
  /** Why a queued question waits, when it is not simply a reset running (a draft under review). */
  queuedNote?: string;
  /** The agent that wrote an assistant reply, in a thread that names its agents. */
  agentName?: string;
  actions: MessageActions;
}) {
  const text = textOf(message);
  const status = message.metadata?.status;
  if (message.role === "user") {
    return (
      <div
        className="flex flex-col items-end gap-1 px-4 py-2"
        data-role="user"
        data-testid="message"
      >
        <div className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl bg-indigo-600 px-4 py-2 text-white">
          {text}
        </div>
        <div className="flex gap-2 text-xs text-zinc-500 dark:text-zinc-400">
          {answering ? (
            <AnsweringIndicator />
          ) : status === "queued" ? (
            <span data-testid="queued-badge">Queued{queuedNote ? ` — ${queuedNote}` : ""}</span>
          ) : null}
          {actions.onEdit ? (
            <button type="button" className="hover:underline" onClick={actions.onEdit}>
              Edit
            </button>
          ) : null}
        </div>
      </div>
    );
  }
  const blocks = blocksOf(message);
  const notice = replyNotice({ status, streaming, stopped, failed, answering });
  const showFailed = notice === "failed";
  return (
    <div className="px-4 py-2" data-role="assistant" data-testid="message">
      {agentName ? (
        <p
          className="mb-1 text-xs font-semibold text-indigo-700 dark:text-indigo-300"
          data-testid="message-agent"
        >
          {agentName}
        </p>
      ) : null}
      <div
        className="prose prose-zinc max-w-none break-words dark:prose-invert"
        data-testid="assistant-text"
      >
        {blocks.length > 0 ? (
          blocks.map((block, i) =>
            block.kind === "text" ? (
              <Streamdown
                key={block.key}
                mode={streaming && i === blocks.length - 1 ? "streaming" : "static"}
                isAnimating={streaming && i === blocks.length - 1}
                components={messageMarkdownComponents}
                rehypePlugins={rehypePluginsFor(block.text)}
              >
                {block.text}
              </Streamdown>
            ) : (
              <ToolCard key={block.key} part={block.part} onApproval={actions.onApproval} />
            ),
          )
        ) : streaming && !waitingOnReset ? (
          <span className="animate-pulse text-zinc-400">Thinking…</span>
        ) : null}
      </div>
      <div className="mt-1 flex flex-wrap items-center gap-3 text-xs text-zinc-500 dark:text-zinc-400">
        {message.metadata?.model ? (
          <span data-testid="model-attribution">{message.metadata.model}</span>
        ) : null}
        {notice === "stopped" ? <span data-testid="stopped-badge">Stopped</span> : null}
        {!streaming && text.trim() !== "" ? <CopyReplyButton markdown={text} /> : null}
        {notice === "answering" ? <AnsweringIndicator /> : null}
        {showFailed ? <Alert size="inherit">The reply failed.</Alert> : null}
        {showFailed && actions.onRetry ? (
          <button type="button" className="hover:underline" onClick={actions.onRetry}>
            Retry
          </button>
        ) : null}
        {!showFailed && notice !== "interrupted" && actions.onRegenerate ? (
          <button type="button" className="hover:underline" onClick={actions.onRegenerate}>
            Regenerate
          </button>
        ) : null}
        {actions.timeline ? <RunTimelineButton {...actions.timeline} /> : null}
      </div>
      {notice === "interrupted" ? <InterruptedNotice actions={actions} /> : null}
    </div>
  );
});

/** Polite, so a screen reader hears it once without being interrupted. */
function AnsweringIndicator() {
  return (
    <span
      role="status"
      aria-live="polite"
      className="inline-flex items-center gap-1.5 text-zinc-600 dark:text-zinc-400"
      data-testid="answering-indicator"
    >
      <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-indigo-500" />
      Answering…
    </span>
  );
}

/**
 * A reply cut off by a server that died while writing it: unlike "Stopped" the user did not ask
 * for this, so it says what happened and offers the two ways on (none on a read-only thread).
 */
function InterruptedNotice({ actions }: { actions: MessageActions }) {
  return (
    <div
      className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
      data-testid="interrupted-notice"
    >
      <p className="min-w-0 flex-1 basis-56">
        This reply was interrupted — the server stopped while writing it.
      </p>
      {actions.onContinue || actions.onRegenerate ? (
        <div className="flex gap-2">
          {actions.onContinue ? (
            <Button size="sm" variant="secondary" onClick={actions.onContinue}>
              Continue
            </Button>
          ) : null}
          {actions.onRegenerate ? (
            <Button size="sm" variant="secondary" onClick={actions.onRegenerate}>
              Regenerate
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
