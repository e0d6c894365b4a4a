// A reset that could not happen because what a brief never drops — pins first among them — is
// larger than a brief may be: the conversation stays in its session, and the card says which
// pins hold it there, each with Unpin, so the next turn does not fail the same way unexplained.
import type { FailedResetState } from "@/lib/chat/format-messages";
import { PinList } from "./pin-list";

export function FailedResetCard({
  failed,
  sessionNumber,
}: {
  failed: FailedResetState;
  sessionNumber: number;
}) {
  return (
    <div className="px-4 py-3" data-testid="reset-failed" data-session-number={sessionNumber}>
      <section
        aria-label="Context reset failed"
        className="mx-auto max-w-2xl rounded-xl border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
      >
        <h2 className="font-semibold">Context reset failed: the pins alone do not fit</h2>
        {failed.reason ? <p className="mt-1 break-words">{failed.reason}</p> : null}
        {failed.pins.length > 0 ? (
          <>
            <h3 className="mt-2 text-xs font-semibold uppercase tracking-wide">
              Pinned ({failed.pins.length})
            </h3>
            <div data-testid="reset-failed-pins">
              <PinList items={failed.pins} carried className="mt-1 list-disc space-y-0.5 pl-5" />
            </div>
          </>
        ) : null}
        <p className="mt-2 font-medium">Unpin some to let the conversation continue.</p>
      </section>
    </div>
  );
}
