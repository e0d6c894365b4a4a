"use client";
// The handoff card's first answers: what the goal is, what is known, what is still unknown, what
// is done and what needs the user's go-ahead — a few items each, the full sections below them.
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { useThreadPins } from "./pin-context";

const SHOWN = 3;

function Items({ items, empty }: { items: string[]; empty: string }) {
  if (items.length === 0) {
    return <span className="italic text-zinc-500 dark:text-zinc-400">{empty}</span>;
  }
  const rest = items.length - SHOWN;
  return (
    <>
      <ul className="space-y-0.5">
        {items.slice(0, SHOWN).map((item, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: plain strings that may repeat.
          <li key={i} className="break-words">
            {item}
          </li>
        ))}
      </ul>
      {rest > 0 ? (
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          and {rest} more (expand to see all)
        </span>
      ) : null}
    </>
  );
}

function Row({ question, children }: { question: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-x-3 gap-y-0.5 sm:grid-cols-[9rem_1fr]">
      <dt className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400 sm:pt-0.5">
        {question}
      </dt>
      <dd className="min-w-0 text-sm text-zinc-800 dark:text-zinc-200">{children}</dd>
    </div>
  );
}

export function FiveQuestions({ artifact: a }: { artifact: HandoffArtifact }) {
  const pins = useThreadPins();
  // As the revision carried them; where the thread's pins are known, one unpinned since says so.
  const pinLabel = (p: string) => (!pins || pins.pinOf(p) ? `Pinned: ${p}` : `Unpinned: ${p}`);
  const known = [
    ...a.must_preserve.map(pinLabel),
    ...a.key_decisions.map((d) => `Decided: ${d}`),
    ...a.confirmed_facts,
  ];
  const done = a.completed_work.length > 0 ? [...a.completed_work].reverse() : [];
  return (
    <dl
      aria-label="The handoff in five answers"
      data-testid="handoff-answers"
      className="space-y-2 border-t border-zinc-200 px-3 py-2 dark:border-zinc-800"
    >
      <Row question="Goal">
        {a.goal ? (
          <p className="line-clamp-3 break-words">{a.goal}</p>
        ) : (
          <span className="italic text-zinc-500 dark:text-zinc-400">Not stated</span>
        )}
      </Row>
      <Row question="Known">
        <Items items={known} empty="Nothing confirmed yet" />
      </Row>
      <Row question="Unknown">
        <Items items={a.unknowns} empty="No open questions" />
      </Row>
      <Row question="Done">
        <Items items={done} empty="Nothing finished yet" />
      </Row>
      <Row question="Needs authorization">
        <Items items={a.needs_authorization} empty="Nothing waiting for you" />
      </Row>
    </dl>
  );
}
