// The chat view's fixed texts around the list: the empty thread's welcome, the note above the
// composer while an approval waits, and a request that failed before any reply existed.
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";

export function EmptyChat() {
  return (
    <EmptyState layout="page" title="What are we working on?" titleAs="h1">
      Long conversations never hit the context wall here: when the context fills up, Baton writes a
      handoff and continues in a fresh session.
    </EmptyState>
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
    <Alert className="px-4 py-2" onRetry={onRetry} retryLabel="Retry">
      {message}
    </Alert>
  );
}
