"use client";
// The thread's plan as a checklist near the composer: collapsed, one line ("Plan 3/6" and the
// item in progress); expanded, every item with its status. Read-only: only the agent changes
// the plan (update_plan).
import * as Collapsible from "@radix-ui/react-collapsible";
import { useState } from "react";
import type { PlanItem, PlanItemStatus } from "@/core/plan-items";

const STATUS_TEXT: Record<PlanItemStatus, string> = {
  pending: "pending",
  in_progress: "in progress",
  done: "done",
};

function ItemIcon({ status }: { status: PlanItemStatus }) {
  if (status === "done") {
    return (
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className="size-4 shrink-0 text-emerald-700 dark:text-emerald-400"
      >
        <rect x="1.5" y="1.5" width="13" height="13" rx="3" fill="currentColor" />
        <path d="M4.5 8.2l2.4 2.4 4.6-5" fill="none" stroke="white" strokeWidth="1.75" />
      </svg>
    );
  }
  if (status === "in_progress") {
    return (
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className="size-4 shrink-0 text-indigo-600 dark:text-indigo-400"
      >
        <rect
          x="2"
          y="2"
          width="12"
          height="12"
          rx="3"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        />
        <rect x="5" y="5" width="6" height="6" rx="1.5" fill="currentColor" />
      </svg>
    );
  }
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      className="size-4 shrink-0 text-zinc-500 dark:text-zinc-400"
    >
      <rect
        x="2"
        y="2"
        width="12"
        height="12"
        rx="3"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
      />
    </svg>
  );
}

export function PlanChecklist({ items }: { items: PlanItem[] }) {
  const [open, setOpen] = useState(false);
  if (items.length === 0) return null;
  const done = items.filter((item) => item.status === "done").length;
  const active = items.find((item) => item.status === "in_progress");
  return (
    <Collapsible.Root
      open={open}
      onOpenChange={setOpen}
      className="mb-2 rounded-lg border border-zinc-200 px-1.5 py-0.5 dark:border-zinc-800"
      data-testid="plan-checklist"
    >
      <Collapsible.Trigger className="flex w-full min-w-0 items-center gap-2 rounded-md px-1 py-1 text-left text-sm hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:hover:bg-zinc-800/60">
        <svg
          aria-hidden="true"
          viewBox="0 0 16 16"
          className={`size-3 shrink-0 text-zinc-500 dark:text-zinc-400 transition-transform ${open ? "rotate-90" : ""}`}
        >
          <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.75" />
        </svg>
        <span className="shrink-0 font-medium text-zinc-900 dark:text-zinc-100">
          Plan{" "}
          <span className="tabular-nums" data-testid="plan-progress">
            {done}/{items.length}
          </span>
        </span>
        <span
          aria-hidden="true"
          className="h-1.5 w-16 shrink-0 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
        >
          <span
            className="block h-full rounded-full bg-emerald-600"
            style={{ width: `${Math.round((done / items.length) * 100)}%` }}
          />
        </span>
        <span className="min-w-0 flex-1 truncate text-xs text-zinc-600 dark:text-zinc-400">
          {active
            ? `Now: ${active.task}`
            : done === items.length
              ? "All done"
              : `Next: ${items.find((i) => i.status === "pending")?.task ?? ""}`}
        </span>
      </Collapsible.Trigger>
      <Collapsible.Content>
        <ol
          className="max-h-56 space-y-1 overflow-y-auto px-1 pt-1 pb-1 text-sm"
          aria-label="Plan items"
        >
          {items.map((item) => (
            <li
              key={item.id}
              className="flex items-start gap-2"
              data-testid="plan-item"
              data-status={item.status}
            >
              <span className="mt-0.5">
                <ItemIcon status={item.status} />
              </span>
              <span
                className={`min-w-0 flex-1 break-words ${
                  item.status === "done"
                    ? "text-zinc-600 line-through decoration-zinc-400 dark:text-zinc-400"
                    : "text-zinc-900 dark:text-zinc-100"
                }`}
              >
                <span className="mr-1.5 font-mono text-xs text-zinc-600 dark:text-zinc-400">
                  {item.id}
                </span>
                {item.task}
              </span>
              <span
                className={`shrink-0 text-xs ${
                  item.status === "in_progress"
                    ? "font-medium text-indigo-700 dark:text-indigo-300"
                    : "text-zinc-600 dark:text-zinc-400"
                }`}
              >
                {STATUS_TEXT[item.status]}
              </span>
            </li>
          ))}
        </ol>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
