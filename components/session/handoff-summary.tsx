"use client";
// The handoff card inside a session divider: one line of state and the five answers (goal, known,
// unknown, done, needs authorization) when collapsed; the whole artifact when expanded, facts and
// guesses kept visibly apart, pins marked as they stand now, with copy and backup actions.
import * as Collapsible from "@radix-ui/react-collapsible";
import { type ReactNode, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { copyText, downloadText } from "@/components/ui/clipboard";
import type { HandoffView } from "@/lib/chat/types";
import { useExpandedHandoff } from "./expanded-handoffs";
import { FiveQuestions } from "./five-questions";
import { NotCarried, notCarriedLine } from "./not-carried";
import { PinList } from "./pin-list";

export function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 16 16"
      className={`size-3.5 transition-transform ${open ? "rotate-90" : ""}`}
    >
      <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.75" />
    </svg>
  );
}

function Section({
  title,
  children,
  className = "",
}: {
  title: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={className}>
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
        {title}
      </h3>
      {children}
    </section>
  );
}

function None() {
  return <p className="text-sm italic text-zinc-500 dark:text-zinc-400">None</p>;
}

function PlainList({ items, mono = false }: { items: string[]; mono?: boolean }) {
  if (items.length === 0) return <None />;
  return (
    <ul className="space-y-1 text-sm">
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: items are plain strings that may repeat.
        <li key={i} className={mono ? "break-all font-mono text-xs" : "break-words"}>
          {item}
        </li>
      ))}
    </ul>
  );
}

function KeyDecisions({ decisions }: { decisions: string[] }) {
  const [open, setOpen] = useState(decisions.length > 0 && decisions.length <= 3);
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} asChild>
      <section>
        <h3 className="mb-1 flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
          <Collapsible.Trigger className="inline-flex items-center gap-1 rounded hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:text-zinc-100">
            <Chevron open={open} />
            Key decisions
          </Collapsible.Trigger>
        </h3>
        {!open ? (
          <p className="text-xs text-zinc-500 dark:text-zinc-400">
            {decisions.length === 1 ? "1 decision" : `${decisions.length} decisions`}
          </p>
        ) : null}
        <Collapsible.Content>
          <PlainList items={decisions} />
        </Collapsible.Content>
      </section>
    </Collapsible.Root>
  );
}

/**
 * The JSON backup: the envelope and the artifact, in the shape the handoff API speaks. A shared
 * thread's card has no key, and its id is a stand-in (lib/chat/share.ts): both are left out.
 */
function backupOf(handoff: HandoffView) {
  return {
    schema_version: 1,
    handoff_key: handoff.key || undefined,
    revision: handoff.revision,
    id: handoff.key ? handoff.id : undefined,
    session_number: handoff.sessionNumber,
    created_at: handoff.createdAt,
    redactions: handoff.redactions,
    dropped: handoff.dropped ?? [],
    artifact: handoff.artifact,
  };
}

export function HandoffSummary({
  handoff,
  sessionNumber,
}: {
  handoff: HandoffView;
  sessionNumber: number;
}) {
  const [open, setOpen] = useExpandedHandoff(`${sessionNumber}:${handoff.id}`);
  const a = handoff.artifact;
  const summary = a.state_summary || a.goal || "No summary recorded.";
  const notCarried = notCarriedLine(handoff);

  const copyMarkdown = async () => {
    if (await copyText(handoff.markdown)) toast("Handoff copied as Markdown");
    else toast.error("Could not copy to the clipboard.");
  };
  const downloadJson = () => {
    downloadText(
      `handoff-session-${sessionNumber}-r${handoff.revision}.json`,
      `${JSON.stringify(backupOf(handoff), null, 2)}\n`,
    );
  };

  return (
    <Collapsible.Root
      open={open}
      onOpenChange={setOpen}
      className="overflow-hidden rounded-xl border border-zinc-200 bg-zinc-50 text-left dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex items-center gap-3 px-3 py-2">
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
            Handoff · revision {handoff.revision}
            {notCarried ? ` · ${notCarried}` : ""}
          </p>
          <p className="truncate text-sm text-zinc-800 dark:text-zinc-200" title={summary}>
            {summary}
          </p>
        </div>
        <Collapsible.Trigger className="inline-flex shrink-0 items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:bg-indigo-950">
          <Chevron open={open} />
          {open ? "Collapse" : "Expand"}
          <span className="sr-only"> handoff for session {sessionNumber}</span>
        </Collapsible.Trigger>
      </div>
      <FiveQuestions artifact={a} />
      <Collapsible.Content data-testid="handoff-details">
        {/* Long handoffs scroll inside the card so the thread around it stays in view. */}
        <section
          aria-label={`Handoff for session ${sessionNumber}`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to scroll it.
          tabIndex={0}
          className="max-h-96 space-y-4 overflow-y-auto border-t border-zinc-200 px-3 py-3 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-zinc-800"
        >
          {a.state_summary ? (
            <p className="text-sm text-zinc-700 dark:text-zinc-300">{a.state_summary}</p>
          ) : null}
          <Section title="Goal">{a.goal ? <p className="text-sm">{a.goal}</p> : <None />}</Section>
          <Section title="Completed work">
            {a.completed_work.length === 0 ? (
              <None />
            ) : (
              <ul className="space-y-1 text-sm">
                {a.completed_work.map((item, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: plain strings that may repeat.
                  <li key={i} className="flex gap-2">
                    <svg
                      aria-hidden="true"
                      viewBox="0 0 16 16"
                      className="mt-0.5 size-4 shrink-0 text-emerald-600"
                    >
                      <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" />
                    </svg>
                    <span className="sr-only">Done: </span>
                    <span className="break-words">{item}</span>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <Section title="In progress">
            {a.in_progress.length === 0 ? (
              <None />
            ) : (
              <ul className="space-y-1 text-sm">
                {a.in_progress.map((item, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: plain strings that may repeat.
                  <li key={i} className="flex items-start gap-2">
                    <span
                      aria-hidden="true"
                      className="mt-1.5 size-2 shrink-0 animate-pulse rounded-full bg-amber-500"
                    />
                    <span className="sr-only">In progress: </span>
                    <span className="break-words">{item}</span>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <Section title="Remaining tasks">
            {a.remaining_tasks.length === 0 ? (
              <None />
            ) : (
              <ul className="space-y-1 text-sm">
                {a.remaining_tasks.map((task) => (
                  <li key={task.id} className="flex gap-2">
                    <code className="shrink-0 rounded bg-zinc-200 px-1 font-mono text-xs leading-5 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200">
                      {task.id}
                    </code>
                    <span className="break-words">{task.task}</span>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <KeyDecisions decisions={a.key_decisions} />
          <div className="grid gap-3 sm:grid-cols-2">
            <Section
              title="Confirmed facts"
              className="rounded-lg border-l-4 border-emerald-500 bg-white p-2 dark:bg-zinc-950"
            >
              <PinList items={a.confirmed_facts} carried={false} empty={<None />} />
            </Section>
            <Section
              title="Unknowns"
              className="rounded-lg border-l-4 border-amber-500 bg-white p-2 dark:bg-zinc-950"
            >
              <PlainList items={a.unknowns} />
            </Section>
          </div>
          <Section title="Must preserve">
            <PinList items={a.must_preserve} carried empty={<None />} />
          </Section>
          <Section title="Files">
            <PlainList items={a.files_modified} mono />
          </Section>
          <Section title="Next step">
            {a.next_step ? <p className="text-sm">{a.next_step}</p> : <None />}
            {a.last_completed_step ? (
              <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                Last completed: {a.last_completed_step}
              </p>
            ) : null}
          </Section>
          <Section title="Needs authorization">
            <PlainList items={a.needs_authorization} />
          </Section>
          <NotCarried handoff={handoff} />
        </section>
        <div className="flex flex-wrap items-center gap-2 border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
          <Button size="sm" onClick={() => void copyMarkdown()}>
            Copy as Markdown
          </Button>
          <Button size="sm" onClick={downloadJson}>
            Download JSON
          </Button>
          {handoff.redactions.length > 0 ? (
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              {handoff.redactions.length === 1
                ? "1 secret was masked"
                : `${handoff.redactions.length} secrets were masked`}{" "}
              ({[...new Set(handoff.redactions.map((r) => r.kind))].join(", ")})
            </span>
          ) : null}
        </div>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
