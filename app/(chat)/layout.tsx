import { headers } from "next/headers";
import { LinkNotice } from "@/components/handoffs/link-notice";
import { GuestGate } from "@/components/sidebar/guest-gate";
import { Sidebar } from "@/components/sidebar/sidebar";
import { currentActor, pendingLinkNotices } from "@/lib/auth/server";

export const dynamic = "force-dynamic";

export default async function ChatLayout({ children }: { children: React.ReactNode }) {
  const requestHeaders = await headers();
  const actor = await currentActor(requestHeaders);
  if (!actor) return <GuestGate />;
  // Shown on the first page a user loads after account linking; the notice marks them seen.
  const notices = await pendingLinkNotices(actor);
  return (
    <div className="flex h-full">
      <Sidebar actor={{ isAnonymous: actor.isAnonymous, email: actor.email, name: actor.name }} />
      <main className="flex min-w-0 flex-1 flex-col">{children}</main>
      <LinkNotice
        notices={notices.map((n) => ({ id: n.id, key: n.data.key, keptAs: n.data.keptAs }))}
      />
    </div>
  );
}
