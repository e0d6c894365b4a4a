"use client";
// The "Groom handoffs" button: deletes handoffs whose conversation is gone or that have been
// idle past the TTL, then shows what went and what stayed, each with its reason.
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import type { GroomResult } from "@/lib/handoff-api/schemas";
import { requestHandoffGrooming } from "./token-api";

const SHOWN = 20;

export function GroomHandoffs({ ttlDays }: { ttlDays: number }) {
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<GroomResult | null>(null);

  const reasons: Record<string, string> = {
    thread_deleted: "its conversation was deleted",
    expired: `idle for more than ${ttlDays} days`,
    in_use: "a conversation continues from it",
    recent: `used in the last ${ttlDays} days`,
  };

  async function run() {
    setRunning(true);
    try {
      setResult(await requestHandoffGrooming());
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Couldn't groom handoffs.");
    } finally {
      setRunning(false);
    }
  }

  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Deletes handoffs whose conversation was deleted, and handoffs nobody has written or accepted
        for {ttlDays} days. A handoff a conversation continues from is always kept.
      </p>
      <Button onClick={() => void run()} disabled={running}>
        {running ? "Grooming…" : "Groom handoffs"}
      </Button>
      {result ? (
        <div role="status" className="space-y-2 text-sm" data-testid="groom-result">
          <p className="font-medium">
            Deleted {result.deleted.length}, kept {result.kept.length}.
          </p>
          {[
            { title: "Deleted", items: result.deleted },
            { title: "Kept", items: result.kept },
          ].map(({ title, items }) =>
            items.length === 0 ? null : (
              <div key={title}>
                <h3 className="text-xs font-semibold text-zinc-500 uppercase dark:text-zinc-400">
                  {title}
                </h3>
                <ul className="mt-1 space-y-0.5">
                  {items.slice(0, SHOWN).map((item) => (
                    <li key={item.key}>
                      <code className="font-mono text-xs">{item.key}</code> —{" "}
                      {reasons[item.reason] ?? item.reason}
                    </li>
                  ))}
                  {items.length > SHOWN ? <li>and {items.length - SHOWN} more</li> : null}
                </ul>
              </div>
            ),
          )}
        </div>
      ) : null}
    </div>
  );
}
