import { LinkNotice } from "@/components/handoffs/link-notice";
import { GuestGate } from "@/components/sidebar/guest-gate";
import { Sidebar } from "@/components/sidebar/sidebar";
import { pageActor } from "@/lib/auth/page-actor";
import { pendingLinkNotices } from "@/lib/auth/server";

export const dynamic = "force-dynamic";

export default async function ChatLayout({ children }: { children: React.ReactNode }) {
  const actor = await pageActor();
  if (!actor) return <GuestGate />;
  // Shown on the first page a user loads after account linking; the notice marks them seen.
  const notices = await pendingLinkNotices(actor);
  return (
    <div className="flex h-full">
      {/* First in the Tab order: past the sidebar's links and thread list, straight to the chat. */}
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-indigo-700 focus:shadow-lg focus:outline-2 focus:outline-indigo-500 dark:focus:bg-zinc-900 dark:focus:text-indigo-200"
      >
        Skip to chat
      </a>
      <Sidebar actor={{ isAnonymous: actor.isAnonymous, email: actor.email, name: actor.name }} />
      <main id="main-content" tabIndex={-1} className="flex min-w-0 flex-1 flex-col outline-none">
        {children}
      </main>
      <LinkNotice
        notices={notices.map((n) => ({ id: n.id, key: n.data.key, keptAs: n.data.keptAs }))}
      />
    </div>
  );
}
