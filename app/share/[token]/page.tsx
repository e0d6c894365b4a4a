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
      <SharedThread
        token={token}
        title={view.thread.title}
        initialMessages={view.messages}
        initialSessions={view.sessions}
        olderCursor={view.olderCursor}
      />
    </main>
  );
}
