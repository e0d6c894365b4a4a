// The chat view's fixed texts around the list: the empty thread's welcome, the note above the
// composer while an approval waits, and a request that failed before any reply existed.

export function EmptyChat() {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-2 p-8 text-center text-zinc-600 dark:text-zinc-400">
      <h1 className="text-xl font-semibold text-zinc-800 dark:text-zinc-200">
        What are we working on?
      </h1>
      <p className="max-w-md text-sm">
        Long conversations never hit the context wall here: when the context fills up, Baton writes
        a handoff and continues in a fresh session.
      </p>
    </div>
  );
}

export function ApprovalNotice() {
  return (
    <p
      role="status"
      className="mb-2 text-xs text-amber-900 dark:text-amber-200"
      data-testid="approval-notice"
    >
      The agent is waiting for your approval in the reply above. Sending a message instead denies
      it.
    </p>
  );
}

export function FailedRequestAlert({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex items-center gap-3 px-4 py-2 text-sm text-red-700">
      {message}
      <button type="button" className="underline" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
