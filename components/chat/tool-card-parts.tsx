"use client";
// Small pieces the tool and approval cards share: the status icon and a monospace preview block.
import type { ToolStatus } from "@/lib/chat/tool-view";

export function StatusIcon({ status }: { status: ToolStatus }) {
  if (status === "running" || status === "approved") {
    return (
      <span
        aria-hidden="true"
        className="size-3 shrink-0 animate-spin rounded-full border-2 border-current border-t-transparent"
      />
    );
  }
  const paths: Record<Exclude<ToolStatus, "running" | "approved">, string> = {
    done: "M3.5 8.5l3 3 6-7",
    error: "M4.5 4.5l7 7M11.5 4.5l-7 7",
    denied: "M3.8 12.2l8.4-8.4M14 8A6 6 0 1 1 2 8a6 6 0 0 1 12 0z",
    awaiting_approval: "M8 4.5V8l2.5 1.5M14 8A6 6 0 1 1 2 8a6 6 0 0 1 12 0z",
    stopped: "M5.5 5.5h5v5h-5zM14 8A6 6 0 1 1 2 8a6 6 0 0 1 12 0z",
  };
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5 shrink-0">
      <path d={paths[status]} fill="none" stroke="currentColor" strokeWidth="1.75" />
    </svg>
  );
}

export function PreviewBlock({ label, text }: { label: string; text: string }) {
  return (
    <div>
      <p className="mb-0.5 text-[11px] font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
        {label}
      </p>
      <pre className="max-h-56 overflow-auto whitespace-pre-wrap break-words rounded-md bg-zinc-50 p-2 font-mono text-xs text-zinc-800 dark:bg-zinc-950 dark:text-zinc-200">
        {text}
      </pre>
    </div>
  );
}
