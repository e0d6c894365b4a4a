"use client";
// The sidebar's account area: a guest is offered sign-up (which keeps their chats) and
// sign-in; an account sees its email and can sign out.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { authClient } from "@/lib/auth/client";

export interface SidebarActor {
  isAnonymous: boolean;
  email: string | null;
  name: string;
}

function initialOf(actor: SidebarActor): string {
  const source = actor.isAnonymous ? "G" : actor.name.trim() || actor.email || "?";
  return source.charAt(0).toUpperCase();
}

const SETTINGS_LINK =
  "block rounded-md px-3 py-1.5 text-center text-sm text-zinc-700 hover:bg-zinc-200/60 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-300 dark:hover:bg-zinc-800/60";

function SettingsLinks() {
  return (
    <>
      <div className="mt-1 flex gap-1">
        <Link href="/settings" className={`${SETTINGS_LINK} flex-1`}>
          Settings
        </Link>
        <Link href="/settings/agents" className={`${SETTINGS_LINK} flex-1`}>
          Agents
        </Link>
      </div>
      <ThemeToggle />
    </>
  );
}

export function AccountMenu({ actor }: { actor: SidebarActor }) {
  const router = useRouter();
  const [signingOut, setSigningOut] = useState(false);

  async function signOut() {
    setSigningOut(true);
    try {
      const { error } = await authClient.signOut();
      if (error) {
        toast.error("Couldn't sign out", { description: error.message ?? error.statusText });
        setSigningOut(false);
        return;
      }
      // The open thread belongs to the account just signed out of, so go home; the layout's
      // guest gate then starts a new guest session on refresh.
      router.replace("/");
      router.refresh();
    } catch {
      toast.error("Couldn't sign out", { description: "Check your connection and try again." });
      setSigningOut(false);
    }
  }

  const avatar = (
    <span
      aria-hidden="true"
      className="flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-sm font-semibold text-indigo-700 dark:bg-indigo-500/20 dark:text-indigo-200"
    >
      {initialOf(actor)}
    </span>
  );

  if (actor.isAnonymous) {
    return (
      <section aria-label="Account" className="border-t border-zinc-200 p-3 dark:border-zinc-800">
        <div className="flex items-center gap-2">
          {avatar}
          <div className="min-w-0">
            <p className="text-sm font-medium">Guest</p>
            <p className="text-xs text-zinc-500 dark:text-zinc-400">
              Chats are kept in this browser.
            </p>
          </div>
        </div>
        <Link
          href="/sign-up"
          className="mt-3 block rounded-md bg-indigo-600 px-3 py-1.5 text-center text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          Sign up to keep your chats
        </Link>
        <Link
          href="/sign-in"
          className="mt-1 block rounded-md px-3 py-1.5 text-center text-sm text-zinc-700 hover:bg-zinc-200/60 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-300 dark:hover:bg-zinc-800/60"
        >
          Sign in
        </Link>
        <SettingsLinks />
      </section>
    );
  }

  const name = actor.name.trim();
  return (
    <section aria-label="Account" className="border-t border-zinc-200 p-3 dark:border-zinc-800">
      <div className="flex items-center gap-2">
        {avatar}
        <div className="min-w-0">
          {name && name !== actor.email && <p className="truncate text-sm font-medium">{name}</p>}
          <p
            className="truncate text-xs text-zinc-600 dark:text-zinc-400"
            title={actor.email ?? undefined}
          >
            {actor.email}
          </p>
        </div>
      </div>
      <button
        type="button"
        onClick={signOut}
        disabled={signingOut}
        className="mt-3 w-full rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium text-zinc-700 hover:bg-zinc-200/60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-60 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800/60"
      >
        {signingOut ? "Signing out…" : "Sign out"}
      </button>
      <SettingsLinks />
    </section>
  );
}
