"use client";
// The chat view's header — agent, model, manual reset, Files and Share — and the offline-model
// notice below it.
import { Button } from "@/components/ui/button";
import type { AgentOption } from "@/lib/agents/profile-view";
import { dismissNotice } from "@/lib/theme/theme";
import { AgentSelect } from "./agent-select";
import { type ModelOption, ModelSelect } from "./model-select";
import { SharePanel } from "./share-panel";

export function ChatHeader({
  threadId,
  models,
  model,
  onModelChange,
  agents,
  agent,
  onAgentChange,
  busy,
  threadExists,
  resetDisabled,
  onReset,
  filesOpen,
  filesPanelId,
  onToggleFiles,
}: {
  threadId: string;
  models: ModelOption[];
  model: string;
  onModelChange: (model: string) => void;
  agents: readonly AgentOption[];
  /** The slug of the thread's agent. */
  agent: string;
  onAgentChange: (slug: string) => void;
  busy: boolean;
  threadExists: boolean;
  resetDisabled: boolean;
  onReset: () => void;
  filesOpen: boolean;
  filesPanelId: string;
  onToggleFiles: () => void;
}) {
  const offline = models.find((m) => m.id === model)?.offline ?? false;
  return (
    <>
      {/* On narrow screens the sidebar's menu button sits over the header's left edge. */}
      <header className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-200 py-2 pr-3 pl-14 sm:pr-4 md:pl-4 dark:border-zinc-800">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 sm:gap-x-4">
          <AgentSelect agents={agents} value={agent} onChange={onAgentChange} disabled={busy} />
          <ModelSelect models={models} value={model} onChange={onModelChange} disabled={busy} />
        </div>
        <div className="flex flex-1 items-center justify-end gap-2 sm:flex-none">
          <Button
            variant="secondary"
            disabled={resetDisabled}
            onClick={onReset}
            title="Write a handoff now and continue in a fresh session"
            aria-label="New session with handoff"
          >
            <span className="sm:hidden">New session</span>
            <span className="max-sm:hidden">New session with handoff</span>
          </Button>
          <Button
            variant="secondary"
            aria-expanded={filesOpen}
            aria-controls={filesPanelId}
            className={filesOpen ? "bg-zinc-100! dark:bg-zinc-800!" : ""}
            disabled={!threadExists}
            onClick={onToggleFiles}
          >
            Files
          </Button>
          <SharePanel threadId={threadId} disabled={!threadExists} />
        </div>
      </header>
      {offline ? (
        <div
          className="flex items-start gap-2 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200"
          data-testid="offline-notice"
          data-offline-notice
        >
          <p className="min-w-0 flex-1">
            You are chatting with <strong>baton/local</strong>, an offline demo model with no AI
            behind it. To connect a real model, set <code>OPENAI_API_KEY</code>,{" "}
            <code>ANTHROPIC_API_KEY</code> or <code>OPENAI_COMPATIBLE_BASE_URL</code> and restart.
          </p>
          <button
            type="button"
            onClick={dismissNotice}
            aria-label="Dismiss the offline model notice"
            className="-my-1 shrink-0 rounded px-2 py-1 text-amber-900 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-amber-600 dark:text-amber-200 dark:hover:bg-amber-900"
          >
            <span aria-hidden="true">✕</span>
          </button>
        </div>
      ) : null}
    </>
  );
}
