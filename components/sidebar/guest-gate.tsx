"use client";
// First visit: no session yet, so start a guest one and re-render the server tree with it.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { authClient } from "@/lib/auth/client";

export function GuestGate() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    authClient.signIn
      .anonymous()
      .then((result) => {
        if (cancelled) return;
        if (result.error) setError(result.error.message ?? "Could not start a guest session.");
        else router.refresh();
      })
      .catch(() => !cancelled && setError("Could not reach the server."));
    return () => {
      cancelled = true;
    };
  }, [router]);
  return (
    <main className="flex h-full items-center justify-center p-6" aria-busy={!error}>
      {error ? (
        <p role="alert" className="text-red-600">
          {error}{" "}
          <button type="button" className="underline" onClick={() => location.reload()}>
            Retry
          </button>
        </p>
      ) : (
        <p className="text-zinc-500 dark:text-zinc-400">Starting a guest session…</p>
      )}
    </main>
  );
}
