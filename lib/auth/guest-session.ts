// A first visit's guest session, made once per browser. The app shell calls ensureGuestSession
// when the page was rendered without a session. Every call in this tab shares one attempt
// (React runs effects twice in development), and the attempt holds a lock shared by every tab
// of the browser (two tabs opened at once): under it, a session that another tab or an earlier
// attempt already made is kept, and only a browser that has none signs in as a guest.
import { authClient } from "./client";
import { withTabLock } from "./tab-lock";

export type GuestSessionResult = { ok: true } | { ok: false; message: string };

let attempt: Promise<GuestSessionResult> | null = null;

async function startGuestSession(): Promise<GuestSessionResult> {
  return withTabLock("baton-guest-session", async () => {
    const current = await authClient.getSession();
    if (current.data?.session) return { ok: true };
    const result = await authClient.signIn.anonymous();
    if (result.error) {
      return { ok: false, message: result.error.message ?? "Could not start a guest session." };
    }
    return { ok: true };
  });
}

/** Resolves once this browser holds a session; a failed attempt may be tried again. */
export function ensureGuestSession(): Promise<GuestSessionResult> {
  attempt ??= startGuestSession()
    .catch((): GuestSessionResult => ({ ok: false, message: "Could not reach the server." }))
    .then((result) => {
      if (!result.ok) attempt = null;
      return result;
    });
  return attempt;
}
