"use client";
// First visit: no session yet, so make sure the browser holds one (a guest's, made once however
// many tabs or effects ask: lib/auth/guest-session.ts) and re-render the server tree with it.
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { LoadingState } from "@/components/ui/loading-state";
import { ensureGuestSession } from "@/lib/auth/guest-session";

export function GuestGate() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const start = useCallback(() => {
    let cancelled = false;
    setError(null);
    void ensureGuestSession().then((result) => {
      if (cancelled) return;
      if (result.ok) router.refresh();
      else setError(result.message);
    });
    return () => {
      cancelled = true;
    };
  }, [router]);
  useEffect(() => start(), [start]);
  return (
    <main className="flex h-full items-center justify-center p-6" aria-busy={!error}>
      {error ? (
        <Alert onRetry={() => start()} retryLabel="Retry">
          {error}
        </Alert>
      ) : (
        <LoadingState label="Starting a guest session…" />
      )}
    </main>
  );
}
