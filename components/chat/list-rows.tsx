"use client";
// The list's own small rows: the marker where a session's older messages were compacted, and
// the placeholder standing for messages not loaded yet (skeleton rows drawn by one element).
import { memo } from "react";

// The rows are memoized: the list renders again on every scroll frame, and a row whose props
// did not change must not render with it.
export const CompactionMarker = memo(function CompactionMarker({
  before,
  after,
}: {
  before: number;
  after: number;
}) {
  return (
    <div className="flex items-center gap-3 px-4 py-2" data-testid="compaction-marker">
      <div aria-hidden="true" className="h-px flex-1 border-t border-dashed border-zinc-300" />
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Earlier messages compacted · {before.toLocaleString()} → {after.toLocaleString()} tokens
      </p>
      <div aria-hidden="true" className="h-px flex-1 border-t border-dashed border-zinc-300" />
    </div>
  );
});

export const Placeholder = memo(function Placeholder({
  height,
  rowHeight,
}: {
  height: number;
  rowHeight: number;
}) {
  return (
    <div aria-hidden="true" data-testid="message-placeholder" className="px-4" style={{ height }}>
      <div
        className="h-full rounded-lg opacity-60"
        style={{
          // Skeleton rows drawn by the background: one element however many messages it holds.
          backgroundImage: `repeating-linear-gradient(to bottom, transparent 0 16px, rgb(161 161 170 / 0.18) 16px 52px, transparent 52px ${Math.max(56, Math.round(rowHeight))}px)`,
        }}
      />
    </div>
  );
});
