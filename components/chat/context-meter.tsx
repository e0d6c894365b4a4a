"use client";
// How full the current session's context is: tokens used of the window, the threshold where the
// strategy acts, and the strategy's name. Fed by `data-context` while streaming and by the
// thread view's stored reading after a reload, so it is never blank.
import type { ContextPart } from "@/lib/chat/types";

function strategyLabel(context: ContextPart): string {
  const at = `${Math.round(context.threshold * 100)}%`;
  switch (context.strategy) {
    case "reset":
      return `reset at ${at}`;
    case "compact":
      return `compacts as it fills, reset at ${at}`;
    case "off":
      return "no automatic reset";
  }
}

const tokens = (n: number) => Math.round(n).toLocaleString("en-US");

export function ContextMeter({ context }: { context: ContextPart }) {
  const percent = Math.max(0, Math.min(100, Math.round(context.utilization * 100)));
  const threshold = Math.max(0, Math.min(100, context.threshold * 100));
  const near = context.strategy !== "off" && context.utilization >= context.threshold * 0.85;
  const label = strategyLabel(context);
  return (
    <div className="flex items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
      {/* biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot draw the threshold mark inside its bar. */}
      <div
        role="meter"
        aria-label="Context used"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}% of the context window (${tokens(context.inputTokens)} of ${tokens(context.contextWindow)} tokens), ${label}`}
        className="relative h-1.5 w-28 shrink-0 overflow-visible rounded-full bg-zinc-200 dark:bg-zinc-800"
        data-testid="context-meter"
      >
        <div
          className={`h-full rounded-full ${near ? "bg-amber-500" : "bg-indigo-600"}`}
          style={{ width: `${percent}%` }}
        />
        {context.strategy !== "off" ? (
          <div
            aria-hidden="true"
            title={`Threshold: ${label}`}
            className="absolute -top-0.5 h-2.5 w-0.5 rounded bg-zinc-700 dark:bg-zinc-300"
            style={{ left: `calc(${threshold}% - 1px)` }}
          />
        ) : null}
      </div>
      <span className="tabular-nums">
        {tokens(context.inputTokens)} / {tokens(context.contextWindow)} tokens · {percent}%
      </span>
      <span aria-hidden="true">·</span>
      <span>{label}</span>
    </div>
  );
}
