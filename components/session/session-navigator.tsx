"use client";
// Jumps between a thread's sessions: chips for a few, a menu for many; the current one follows
// the reader's scroll position. A thread that names its agents shows each session's agent.
import { memo } from "react";
import { Button } from "@/components/ui/button";
import type { AgentRef } from "@/lib/chat/types";

/** Past this many sessions the chips collapse into a menu. */
const MAX_SESSION_CHIPS = 6;

/** A chip's label: "Session 2", or "S2 · Editor" when the thread names its agents. */
function chipLabel(number: number, agents: Record<number, AgentRef> | undefined): string {
  if (!agents || Object.keys(agents).length === 0) return `Session ${number}`;
  const agent = agents[number];
  return agent ? `S${number} · ${agent.name}` : `S${number}`;
}

function optionLabel(number: number, agents: Record<number, AgentRef> | undefined): string {
  const agent = agents?.[number];
  return agent ? `Session ${number} · ${agent.name}` : `Session ${number}`;
}

// Memoized: the message list it sits in renders again on every scroll frame.
export const SessionNavigator = memo(function SessionNavigator({
  sessions,
  agents,
  current,
  onJump,
}: {
  /** Session numbers in order. */
  sessions: number[];
  /** Each session's agent; empty or absent in a thread that does not name its agents. */
  agents?: Record<number, AgentRef>;
  current: number;
  onJump: (sessionNumber: number) => void;
}) {
  if (sessions.length <= 1) return null;
  const position = sessions.indexOf(current);
  const previous = position > 0 ? sessions[position - 1] : undefined;
  const next = position >= 0 && position < sessions.length - 1 ? sessions[position + 1] : undefined;
  return (
    <nav
      aria-label="Sessions"
      className="flex items-center gap-1.5 overflow-x-auto border-b border-zinc-200 px-4 py-1.5 dark:border-zinc-800"
    >
      <span className="mr-1 shrink-0 text-xs font-medium text-zinc-600 dark:text-zinc-400">
        Sessions
      </span>
      {sessions.length <= MAX_SESSION_CHIPS ? (
        sessions.map((number) => {
          const active = number === current;
          return (
            <button
              key={number}
              type="button"
              aria-current={active ? "true" : undefined}
              onClick={() => onJump(number)}
              className={`shrink-0 rounded-full border px-2.5 py-0.5 text-xs font-medium focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500 ${
                active
                  ? "border-indigo-600 bg-indigo-600 text-white"
                  : "border-zinc-300 text-zinc-700 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800"
              }`}
            >
              {chipLabel(number, agents)}
            </button>
          );
        })
      ) : (
        <>
          <Button
            size="sm"
            variant="ghost"
            disabled={previous === undefined}
            onClick={() => previous !== undefined && onJump(previous)}
          >
            Previous session
          </Button>
          <select
            aria-label="Jump to session"
            className="rounded-md border border-zinc-300 bg-white px-2 py-0.5 text-xs text-zinc-800 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
            value={position >= 0 ? String(current) : ""}
            onChange={(event) => onJump(Number(event.target.value))}
          >
            {position < 0 ? <option value="">Session…</option> : null}
            {sessions.map((number) => (
              <option key={number} value={String(number)}>
                {optionLabel(number, agents)}
              </option>
            ))}
          </select>
          <span className="text-xs text-zinc-600 dark:text-zinc-400">of {sessions.length}</span>
          <Button
            size="sm"
            variant="ghost"
            disabled={next === undefined}
            onClick={() => next !== undefined && onJump(next)}
          >
            Next session
          </Button>
        </>
      )}
    </nav>
  );
});
