"use client";
// A drafted handoff waiting for the user where the thread ends: the five answers first (as the
// card gives them, following the edits), then every field the next session starts from, editable,
// with "Start new session" (commit) and "Keep this session" (cancel). Nothing is carried until the
// user commits; messages sent meanwhile wait for this review.
import { createContext, useContext, useId } from "react";
import type { DraftReview } from "@/components/chat/use-draft-review";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import type { DraftListField } from "@/lib/chat/draft-edits";
import { DraftItemList, DraftTextArea } from "./draft-fields";
import { FiveQuestions } from "./five-questions";
import { NotCarriedList } from "./not-carried";
import { DraftPins } from "./pin-context";

const LISTS: { field: DraftListField; label: string; hint?: string }[] = [
  { field: "completed_work", label: "Completed work" },
  { field: "in_progress", label: "In progress" },
  { field: "key_decisions", label: "Key decisions" },
  { field: "confirmed_facts", label: "Confirmed facts", hint: "Pin a fact to carry it always." },
  { field: "unknowns", label: "Unknowns" },
  {
    field: "must_preserve",
    label: "Must preserve (pinned)",
    hint: "Carried into every later handoff until unpinned.",
  },
  { field: "needs_authorization", label: "Needs authorization" },
];

// The chat view's review, reaching the editor's row inside the virtualized list.
const DraftReviewContext = createContext<DraftReview | null>(null);
export const DraftReviewProvider = DraftReviewContext.Provider;

/** The editor row of the list; nothing where no review is offered (a shared thread). */
export function DraftReviewRow({ sessionNumber }: { sessionNumber: number }) {
  const review = useContext(DraftReviewContext);
  return review ? <DraftEditor review={review} sessionNumber={sessionNumber} /> : null;
}

function DraftEditor({ review, sessionNumber }: { review: DraftReview; sessionNumber: number }) {
  const titleId = useId();
  const { draft, artifact, errors, pending, edit } = review;
  if (!draft || !artifact) return null;
  const disabled = pending !== null;
  const byField = errors?.byField ?? {};
  const why =
    draft.trigger === "threshold"
      ? "The context is nearly full."
      : "You asked to start a new session.";

  return (
    <div className="px-4 py-3" data-testid="draft-editor" data-session-number={sessionNumber}>
      <section
        aria-labelledby={titleId}
        className="mx-auto max-w-2xl overflow-hidden rounded-xl border border-indigo-300 bg-white text-left dark:border-indigo-800 dark:bg-zinc-950"
      >
        <header className="bg-indigo-50 px-3 py-2 dark:bg-indigo-950">
          <h2 id={titleId} className="text-sm font-semibold text-indigo-950 dark:text-indigo-100">
            Review the handoff before session {sessionNumber} starts
          </h2>
          <p className="mt-0.5 text-xs text-indigo-900 dark:text-indigo-200">
            {why} Session {sessionNumber} will start from exactly what is below: edit it, remove
            what is wrong, pin what must always carry. Messages you send now wait for your review.
            {draft.expiresAt ? (
              <>
                {" "}
                Kept until <RelativeTime iso={draft.expiresAt} />.
              </>
            ) : null}
          </p>
        </header>
        <DraftPins>
          <FiveQuestions artifact={artifact} />
        </DraftPins>
        <div className="space-y-4 border-t border-zinc-200 px-3 py-3 dark:border-zinc-800">
          <DraftTextArea
            label="Goal"
            value={artifact.goal}
            errors={byField.goal}
            disabled={disabled}
            onChange={(value) => edit({ kind: "set_text", field: "goal", value })}
          />
          <DraftTextArea
            label="State summary"
            rows={3}
            value={artifact.state_summary}
            errors={byField.state_summary}
            disabled={disabled}
            onChange={(value) => edit({ kind: "set_text", field: "state_summary", value })}
          />
          <DraftItemList
            label="Remaining tasks"
            items={artifact.remaining_tasks.map((t) => t.task)}
            prefixes={artifact.remaining_tasks.map((t) => t.id)}
            errors={byField.remaining_tasks}
            disabled={disabled}
            onRemove={(index) => edit({ kind: "remove_task", index })}
            onAdd={(task) => edit({ kind: "add_task", task })}
          />
          {LISTS.map(({ field, label, hint }) => (
            <DraftItemList
              key={field}
              label={label}
              hint={hint}
              items={artifact[field]}
              errors={byField[field]}
              disabled={disabled}
              onRemove={(index) => edit({ kind: "remove_item", field, index })}
              onAdd={(text) => edit({ kind: "add_item", field, text })}
              action={
                field === "confirmed_facts"
                  ? { label: "Pin", run: (index) => edit({ kind: "pin_fact", index }) }
                  : field === "must_preserve"
                    ? { label: "Unpin", run: (index) => edit({ kind: "unpin", index }) }
                    : undefined
              }
            />
          ))}
          <DraftTextArea
            label="Next step"
            value={artifact.next_step}
            errors={byField.next_step}
            disabled={disabled}
            onChange={(value) => edit({ kind: "set_text", field: "next_step", value })}
          />
          <NotCarriedList dropped={draft.dropped} />
          {errors && errors.other.length > 0 ? <Alert>{errors.other.join(" ")}</Alert> : null}
        </div>
        <footer className="flex flex-wrap items-center gap-2 border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
          <Button variant="primary" disabled={disabled} onClick={() => void review.commit()}>
            Start new session
          </Button>
          <Button disabled={disabled} onClick={() => void review.cancel()}>
            Keep this session
          </Button>
          <span role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
            {pending === "commit"
              ? `Starting session ${sessionNumber}…`
              : pending === "cancel"
                ? `Keeping session ${sessionNumber - 1}…`
                : ""}
          </span>
        </footer>
      </section>
    </div>
  );
}
