"use client";
// The open handoffs as a list with one "Continue" button each. It belongs to the empty new
// chat, so it steps aside as soon as that chat gets its own address (first message sent).
import { usePathname, useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import { ApiError } from "@/lib/api/client";
import type { OpenHandoff } from "@/lib/handoff-api/open-handoff";
import { startThreadFromHandoff } from "./continue-api";

export function ContinuePanel({ handoffs }: { handoffs: OpenHandoff[] }) {
  const pathname = usePathname();
  const router = useRouter();
  const headingId = useId();
  const [pendingKey, setPendingKey] = useState<string | null>(null);
  // One thread id per handoff while this page is open: a second click retries, never duplicates.
  const threadIds = useRef(new Map<string, string>());

  if (pathname !== "/") return null;

  async function start(handoff: OpenHandoff) {
    setPendingKey(handoff.key);
    let threadId = threadIds.current.get(handoff.key);
    if (!threadId) {
      threadId = crypto.randomUUID();
      threadIds.current.set(handoff.key, threadId);
    }
    try {
      const id = await startThreadFromHandoff({ key: handoff.key, id: handoff.id, threadId });
      router.push(`/chat/${id}`);
    } catch (error) {
      setPendingKey(null);
      if (error instanceof ApiError && error.code?.startsWith("conflict:")) {
        toast.error("That handoff has changed", { description: error.message });
        router.refresh();
        return;
      }
      toast.error("Couldn't continue", {
        description:
          error instanceof Error ? error.message : "Check your connection and try again.",
      });
    }
  }

  return (
    <section
      aria-labelledby={headingId}
      className="max-h-[45vh] shrink-0 overflow-y-auto border-b border-zinc-200 px-4 py-3 dark:border-zinc-800"
    >
      <h2 id={headingId} className="text-sm font-semibold text-zinc-800 dark:text-zinc-100">
        Continue where you left off
      </h2>
      <ul className="mt-2 space-y-2">
        {handoffs.map((handoff) => {
          const goal = handoff.goal.trim() || handoff.key;
          return (
            <li
              key={handoff.key}
              data-testid="open-handoff"
              className="flex items-center gap-3 rounded-lg border border-zinc-200 bg-white px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900"
            >
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium" title={goal}>
                  {goal}
                </p>
                <p
                  className="truncate text-xs text-zinc-600 dark:text-zinc-400"
                  title={handoff.stateSummary}
                >
                  {handoff.stateSummary.split("\n")[0] || "No summary"}
                </p>
                <p className="text-xs text-zinc-500 dark:text-zinc-500">
                  Updated <RelativeTime iso={handoff.updatedAt} />
                </p>
              </div>
              <Button
                variant="primary"
                size="sm"
                aria-label={`Continue: ${goal}`}
                disabled={pendingKey !== null}
                aria-busy={pendingKey === handoff.key}
                onClick={() => void start(handoff)}
              >
                {pendingKey === handoff.key ? "Starting…" : "Continue"}
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
