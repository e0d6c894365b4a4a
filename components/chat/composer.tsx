"use client";
// The composer: Enter sends, Shift+Enter adds a line; while a reply streams, Stop is offered;
// while a context reset blocks input it stays typeable and Send becomes Queue.
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useRef } from "react";
import { Alert } from "@/components/ui/alert";

export function Composer({
  value,
  onChange,
  onSubmit,
  onStop,
  busy,
  queueing = false,
  editing,
  onCancelEdit,
  maxLength,
  header,
  footer,
}: {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  onStop: () => void;
  busy: boolean;
  /** A reset is running: what is sent now is queued and answered in the new session. */
  queueing?: boolean;
  editing: boolean;
  onCancelEdit: () => void;
  maxLength: number;
  /** Shown above the input (the plan checklist). */
  header?: ReactNode;
  /** Shown under the input (the context meter). */
  footer?: ReactNode;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (editing) ref.current?.focus();
  }, [editing]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if ((busy && !queueing) || value.trim().length === 0 || value.length > maxLength) return;
    onSubmit();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
    if (event.key === "Escape" && editing) onCancelEdit();
  };
  const tooLong = value.length > maxLength;
  return (
    <form onSubmit={submit} className="border-t border-zinc-200 p-3 dark:border-zinc-800">
      {header}
      {editing ? (
        <div className="mb-1 flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
          Editing your last message.
          <button type="button" className="underline" onClick={onCancelEdit}>
            Cancel edit
          </button>
        </div>
      ) : null}
      <div className="flex items-end gap-2">
        <textarea
          ref={ref}
          aria-label="Message"
          placeholder="Send a message"
          aria-description="Enter sends; Shift+Enter starts a new line."
          className="max-h-48 min-h-11 flex-1 resize-none rounded-xl border border-zinc-300 bg-transparent px-3 py-2 outline-none focus:border-indigo-500 dark:border-zinc-700"
          rows={1}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={onKeyDown}
          // biome-ignore lint/a11y/noAutofocus: the composer is the page's primary control.
          autoFocus
        />
        {/* Keyed, so that a reply ending never turns the Stop button under a click into Send. */}
        {queueing ? (
          <button
            key="queue"
            type="submit"
            disabled={value.trim().length === 0 || tooLong}
            title="The context is being reset: this message will be answered in the new session."
            className="rounded-xl bg-indigo-600 px-4 py-2 font-medium text-white disabled:bg-zinc-200 disabled:text-zinc-600 dark:disabled:bg-zinc-700 dark:disabled:text-zinc-200"
          >
            Queue
          </button>
        ) : busy ? (
          <button
            key="stop"
            type="button"
            onClick={onStop}
            title="Stop the reply (Esc)"
            aria-keyshortcuts="Escape"
            className="rounded-xl bg-zinc-800 px-4 py-2 font-medium text-white dark:bg-zinc-200 dark:text-zinc-900"
          >
            Stop
          </button>
        ) : (
          <button
            key="send"
            type="submit"
            disabled={value.trim().length === 0 || tooLong}
            className="rounded-xl bg-indigo-600 px-4 py-2 font-medium text-white disabled:bg-zinc-200 disabled:text-zinc-600 dark:disabled:bg-zinc-700 dark:disabled:text-zinc-200"
          >
            {editing ? "Save & send" : "Send"}
          </button>
        )}
      </div>
      {footer ? <div className="mt-2">{footer}</div> : null}
      {tooLong ? (
        <Alert size="xs" className="mt-1">
          Messages are limited to {maxLength.toLocaleString()} characters (
          {value.length.toLocaleString()} now).
        </Alert>
      ) : null}
    </form>
  );
}
