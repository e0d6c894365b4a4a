"use client";
// The app's left sidebar: name, "New chat" (also Ctrl/Cmd+Shift+O), the user's threads and
// the account area. Always shown from md up; a drawer behind a toggle button below that.
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { AccountMenu, type SidebarActor } from "./account-menu";
import { CloseIcon, MenuIcon, PlusIcon } from "./sidebar-icons";
import { ThreadList } from "./thread-list";

export type { SidebarActor } from "./account-menu";

const SIDEBAR_ID = "baton-sidebar";

function isNewChatShortcut(event: KeyboardEvent): boolean {
  return (
    (event.ctrlKey || event.metaKey) &&
    event.shiftKey &&
    !event.altKey &&
    event.key.toLowerCase() === "o"
  );
}

/*
 * "/" again, rendered afresh: a new chat page is a new thread id from the server, and a page that
 * just became /chat/<id> (history.replaceState after its first message) would otherwise get the
 * router's copy of "/" back — the same thread id, so the next message went to the old thread.
 */
function openNewChat(router: ReturnType<typeof useRouter>) {
  router.push("/");
  router.refresh();
}

export function Sidebar({ actor }: { actor: SidebarActor }) {
  const router = useRouter();
  const pathname = usePathname();
  // The drawer is open for the page it was opened on, so any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn !== null && openOn === pathname;
  const toggleRef = useRef<HTMLButtonElement>(null);
  const newChatRef = useRef<HTMLAnchorElement>(null);

  useEffect(() => {
    function startNewChat(event: KeyboardEvent) {
      if (!isNewChatShortcut(event)) return;
      event.preventDefault();
      openNewChat(router);
    }
    window.addEventListener("keydown", startNewChat);
    return () => window.removeEventListener("keydown", startNewChat);
  }, [router]);

  useEffect(() => {
    if (!open) return;
    newChatRef.current?.focus();
    function closeOnEscape(event: KeyboardEvent) {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      setOpenOn(null);
      toggleRef.current?.focus();
    }
    window.addEventListener("keydown", closeOnEscape);
    return () => window.removeEventListener("keydown", closeOnEscape);
  }, [open]);

  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        aria-label="Toggle sidebar"
        aria-expanded={open}
        aria-controls={SIDEBAR_ID}
        onClick={() => setOpenOn(open ? null : pathname)}
        className="fixed top-2.5 left-2.5 z-50 flex size-9 items-center justify-center rounded-md border border-zinc-200 bg-white/90 text-zinc-700 shadow-sm backdrop-blur hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 md:hidden dark:border-zinc-800 dark:bg-zinc-900/90 dark:text-zinc-200 dark:hover:bg-zinc-800"
      >
        {open ? <CloseIcon width={18} height={18} /> : <MenuIcon width={18} height={18} />}
      </button>

      {open && (
        // A pointer convenience only: keyboard users close the drawer with Escape or the toggle.
        <div
          aria-hidden="true"
          onClick={() => setOpenOn(null)}
          className="fixed inset-0 z-30 bg-zinc-950/40 md:hidden"
        />
      )}

      <aside
        id={SIDEBAR_ID}
        aria-label="Sidebar"
        data-closes-on-escape={open || undefined}
        className={`${
          open ? "flex" : "hidden"
        } fixed inset-y-0 left-0 z-40 w-64 shrink-0 flex-col border-r border-zinc-200 bg-zinc-50 shadow-xl md:static md:flex md:shadow-none dark:border-zinc-800 dark:bg-zinc-900`}
      >
        <div className="flex h-14 items-center pr-3 pl-14 md:pl-4">
          <span className="font-semibold text-lg tracking-tight">Baton</span>
        </div>

        <div className="px-3 pb-3">
          <Link
            ref={newChatRef}
            href="/"
            onClick={(event) => {
              // A plain click; a modified one (new tab, new window) is the browser's.
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              openNewChat(router);
            }}
            aria-keyshortcuts="Control+Shift+O Meta+Shift+O"
            title="New chat (Ctrl/⌘+Shift+O)"
            className="flex items-center gap-2 rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm font-medium text-zinc-800 shadow-xs hover:border-indigo-300 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-100 dark:hover:border-indigo-500/60 dark:hover:text-indigo-200"
          >
            <PlusIcon />
            New chat
          </Link>
        </div>

        <ThreadList key={actor.isAnonymous ? "guest" : (actor.email ?? "account")} />

        <AccountMenu actor={actor} />
      </aside>
    </>
  );
}
