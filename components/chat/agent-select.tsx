"use client";
// The chat header's agent picker: which of the user's agents the thread runs with. A new chat
// keeps the choice for its first message; an existing thread is moved at once (PATCH).
import Link from "next/link";
import type { AgentOption } from "@/lib/agents/profile-view";

export function AgentSelect({
  agents,
  value,
  onChange,
  disabled,
}: {
  agents: readonly AgentOption[];
  /** The slug of the thread's agent. */
  value: string;
  onChange: (slug: string) => void;
  disabled: boolean;
}) {
  // An agent made in another tab after this page loaded is still shown by its slug.
  const options = agents.some((a) => a.id === value)
    ? agents
    : [...agents, { id: value, name: value }];
  return (
    <span className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
      <label className="flex items-center gap-2">
        {/* The select names itself; on a phone the visible word costs a row. */}
        <span className="max-sm:sr-only">Agent</span>
        <select
          aria-label="Agent"
          className="max-w-32 rounded-md border sm:max-w-40 border-zinc-300 bg-transparent px-2 py-1 dark:border-zinc-700"
          value={value}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
        >
          {options.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </label>
      <Link
        href="/settings/agents"
        className="text-xs text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300"
      >
        Manage
        <span className="sr-only"> agents</span>
      </Link>
    </span>
  );
}
