import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SharedThread } from "@/components/chat/shared-thread";
import { loadSharedThreadView } from "@/lib/chat/share";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Shared thread · Baton",
  // A share link is for whoever holds it, not for search engines.
  robots: { index: false, follow: false },
};

export default async function SharedThreadPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await loadSharedThreadView({ token, limit: 200 });
  if (!view) notFound();
  return (
    <main className="flex h-full min-h-0 flex-col">
      <header className="border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">
          Shared thread · read-only
        </p>
        <h1 className="truncate text-lg font-semibold">{view.thread.title}</h1>
      </header>
      <SharedThread
        token={token}
        initialMessages={view.messages}
        initialSessions={view.sessions}
        olderCursor={view.olderCursor}
      />
    </main>
  );
}
