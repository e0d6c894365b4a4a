"use client";
// Confirms deleting a thread in a native modal <dialog>: focus is trapped and restored by the
// browser, Escape cancels, and the dialog stays open with the error if the delete fails.
import { useEffect, useId, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { type ThreadSummary, threadLabel } from "./thread-api";

export function DeleteThreadDialog({
  thread,
  onConfirm,
  onClose,
}: {
  thread: ThreadSummary;
  /** Deletes the thread; rejects with a message to show. */
  onConfirm: (thread: ThreadSummary) => Promise<void>;
  /** Called once the dialog has closed, whether cancelled or done. */
  onClose: () => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  async function confirmDelete() {
    setPending(true);
    setError(null);
    try {
      await onConfirm(thread);
      dialogRef.current?.close();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Couldn't delete the conversation.");
      setPending(false);
    }
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onClose={onClose}
      onCancel={(event) => {
        // Escape while the request is running would hide its outcome.
        if (pending) event.preventDefault();
      }}
      className="m-auto w-[min(24rem,calc(100vw-2rem))] rounded-xl border border-zinc-200 bg-white p-5 text-zinc-900 shadow-xl backdrop:bg-zinc-950/50 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id={titleId} className="font-semibold text-base">
        Delete conversation?
      </h2>
      <p id={descriptionId} className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        “
        <span className="break-words font-medium text-zinc-900 dark:text-zinc-100">
          {threadLabel(thread)}
        </span>
        ” and all its messages will be deleted. This can’t be undone.
      </p>
      {error && <Alert className="mt-3">{error}</Alert>}
      <div className="mt-5 flex justify-end gap-2">
        <button
          type="button"
          onClick={() => dialogRef.current?.close()}
          disabled={pending}
          className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          Cancel
        </button>
        <button
          type="button"
          onClick={confirmDelete}
          disabled={pending}
          className="rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-500 disabled:opacity-60"
        >
          {pending ? "Deleting…" : "Delete"}
        </button>
      </div>
    </dialog>
  );
}
