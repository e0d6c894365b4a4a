"use client";
// One thread in the sidebar: a link to it, and rename (inline) and delete actions that stay
// reachable by keyboard while only showing on hover or focus for pointer users.
import Link from "next/link";
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { PencilIcon, TrashIcon } from "./sidebar-icons";
import { type ThreadSummary, threadLabel } from "./thread-api";

const MAX_TITLE_LENGTH = 200;

export function ThreadItem({
  thread,
  current,
  onRename,
  onDelete,
}: {
  thread: ThreadSummary;
  current: boolean;
  onRename: (thread: ThreadSummary, title: string) => void;
  onDelete: (thread: ThreadSummary) => void;
}) {
  const label = threadLabel(thread);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(thread.title);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const renameButtonRef = useRef<HTMLButtonElement>(null);
  // Enter/Escape unmount the input, which may fire blur: the edit must end exactly once.
  const settled = useRef(false);
  const returnFocus = useRef(false);
  const errorId = useId();

  useEffect(() => {
    if (editing) {
      inputRef.current?.focus();
      inputRef.current?.select();
    } else if (returnFocus.current) {
      returnFocus.current = false;
      renameButtonRef.current?.focus();
    }
  }, [editing]);

  function startEditing() {
    settled.current = false;
    setDraft(thread.title);
    setError(null);
    setEditing(true);
  }

  function finishEditing(restoreFocus: boolean) {
    settled.current = true;
    returnFocus.current = restoreFocus;
    setError(null);
    setEditing(false);
  }

  function saveTitle(source: "submit" | "blur") {
    if (settled.current) return;
    const title = draft.trim();
    if (!title) {
      // Leaving an empty field is a cancel; submitting one is a mistake to point out.
      if (source === "blur") finishEditing(false);
      else setError("Title can't be empty.");
      return;
    }
    finishEditing(source === "submit");
    if (title !== thread.title) onRename(thread, title);
  }

  function submitTitle(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    saveTitle("submit");
  }

  function cancelOnEscape(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Escape") return;
    // Keep Escape from also closing the sidebar drawer on small screens.
    event.preventDefault();
    event.stopPropagation();
    finishEditing(true);
  }

  if (editing) {
    return (
      <li className="px-1 py-0.5">
        <form onSubmit={submitTitle}>
          <input
            ref={inputRef}
            value={draft}
            onChange={(event) => {
              setDraft(event.target.value);
              if (error) setError(null);
            }}
            onKeyDown={cancelOnEscape}
            onBlur={() => saveTitle("blur")}
            maxLength={MAX_TITLE_LENGTH}
            aria-label="Conversation title"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className="w-full rounded-md border border-indigo-500 bg-white px-2 py-1.5 text-sm text-zinc-900 outline-none ring-2 ring-indigo-500/30 dark:bg-zinc-900 dark:text-zinc-100"
          />
          {error && (
            <Alert id={errorId} size="xs" className="px-1 pt-1">
              {error}
            </Alert>
          )}
        </form>
      </li>
    );
  }

  return (
    <li
      className={`group flex items-center rounded-md text-sm ${
        current
          ? "bg-indigo-50 text-indigo-900 dark:bg-indigo-500/15 dark:text-indigo-100"
          : "text-zinc-700 hover:bg-zinc-200/60 dark:text-zinc-300 dark:hover:bg-zinc-800/60"
      }`}
    >
      <Link
        href={`/chat/${encodeURIComponent(thread.id)}`}
        aria-current={current ? "page" : undefined}
        title={label}
        className={`min-w-0 flex-1 truncate rounded-md px-2 py-1.5 outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${
          current ? "font-medium" : ""
        }`}
      >
        {label}
      </Link>
      <div
        className={`flex shrink-0 items-center gap-0.5 pr-1 group-focus-within:opacity-100 group-hover:opacity-100 pointer-coarse:opacity-100 ${
          current ? "opacity-100" : "opacity-0"
        }`}
      >
        <button
          ref={renameButtonRef}
          type="button"
          onClick={startEditing}
          aria-label={`Rename ${label}`}
          title="Rename"
          className="rounded p-1 text-zinc-500 outline-none hover:bg-zinc-300/60 hover:text-zinc-900 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-zinc-400 dark:hover:bg-zinc-700 dark:hover:text-zinc-100"
        >
          <PencilIcon width={14} height={14} />
        </button>
        <button
          type="button"
          onClick={() => onDelete(thread)}
          aria-label={`Delete ${label}`}
          title="Delete"
          className="rounded p-1 text-zinc-500 outline-none hover:bg-red-100 hover:text-red-700 focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-zinc-400 dark:hover:bg-red-500/20 dark:hover:text-red-300"
        >
          <TrashIcon width={14} height={14} />
        </button>
      </div>
    </li>
  );
}
